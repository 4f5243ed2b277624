import { html, LitElement, nothing } from "lit";
import { GatewayClient, type ConnectionState } from "./gateway-client.js";
import { forgetToken, loadToken, saveToken, takeTokenFromAddress } from "./token-store.js";
import { ApprovalsStore } from "./approvals-store.js";
import { itemFromHash, VIEWS, viewFromHash, type ViewId } from "./routes.js";
import "./views/index.js";

/** Refusals that only mean "give me the token or password". */
const CREDENTIAL_MISSING = new Set(["AUTH_TOKEN_MISSING", "AUTH_PASSWORD_MISSING"]);

/**
 * The Control UI: a sign-in screen until the gateway accepts the token, then the views. The
 * connection line at the top says when the link is down and when it will try again.
 */
export class OpenClawApp extends LitElement {
  static properties = {
    conn: { state: true },
    view: { state: true },
    item: { state: true },
    generation: { state: true },
    signInError: { state: true },
    pendingApprovals: { state: true },
    probing: { state: true },
  };
  declare conn: ConnectionState | undefined;
  declare view: ViewId;
  /** What the hash names after the view (`#/traces/<runId>`), for views that open one item. */
  declare item: string | undefined;
  declare generation: number;
  declare signInError: string | undefined;
  declare pendingApprovals: number;
  /** Trying to connect with no credential: the sign-in screen stays up until the gateway accepts. */
  declare probing: boolean;
  private client: GatewayClient | undefined;
  private readonly approvals = new ApprovalsStore(() => (this.pendingApprovals = this.approvals.pending.length));

  constructor() {
    super();
    this.followHash();
    this.generation = 0;
    this.pendingApprovals = 0;
    this.probing = false;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  connectedCallback(): void {
    super.connectedCallback();
    // The page's static "loading" line paints before any script runs; the app takes over here.
    document.querySelector(".boot")?.remove();
    const linked = takeTokenFromAddress();
    if (linked) saveToken(linked);
    const token = linked ?? loadToken();
    // Without a token, one try with none: a gateway behind an identity-aware proxy
    // (gateway.auth.mode trusted-proxy) lets the proxy's user in, and any other gateway says a
    // credential is missing, which only shows the sign-in screen.
    this.connect(token ?? "", token === undefined);
    window.addEventListener("hashchange", () => this.followHash());
  }

  private followHash(): void {
    this.view = viewFromHash(window.location.hash);
    this.item = itemFromHash(window.location.hash);
  }

  private connect(token: string, withoutCredential = false): void {
    this.client?.stop();
    const client = new GatewayClient(websocketUrl(), token, __UI_VERSION__);
    this.client = client;
    this.probing = withoutCredential;
    this.approvals.attach(client);
    client.onState((state) => {
      if (client !== this.client) return;
      this.conn = state;
      if (state.kind === "open") {
        this.generation += 1;
        this.probing = false;
      }
      if (state.kind === "auth-failed") {
        if (!withoutCredential) forgetToken();
        // A gateway that wants a token or password says so; anything else (the proxy's refusal) is worth showing.
        if (!withoutCredential || !CREDENTIAL_MISSING.has(state.code)) this.signInError = state.message;
        this.probing = false;
      }
    });
    client.start();
  }

  private signIn(event: SubmitEvent): void {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem("token") as HTMLInputElement;
    const token = input.value.trim();
    if (!token) {
      this.signInError = "Paste the gateway token (it is in the gateway's start output, or run: openclaw config get gateway.auth.token).";
      return;
    }
    this.signInError = undefined;
    saveToken(token);
    this.connect(token);
  }

  private signOut(): void {
    forgetToken();
    this.client?.stop();
    this.client = undefined;
    this.conn = undefined;
  }

  protected render() {
    const signedIn = this.client && this.conn && this.conn.kind !== "auth-failed" && (!this.probing || this.conn.kind === "open");
    return signedIn ? this.renderShell() : this.renderSignIn();
  }

  private renderSignIn() {
    return html`<main class="sign-in">
      <h1>OpenClaw Control</h1>
      <form @submit=${this.signIn} aria-label="Sign in">
        <label for="token">Gateway token (or password)</label>
        <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" autofocus />
        <button type="submit">Connect</button>
      </form>
      ${this.signInError ? html`<p class="error" role="alert" data-testid="sign-in-error">The gateway refused to connect: ${this.signInError}</p>` : nothing}
      <p class="hint">The token is kept in this browser only. <code>npm start</code> prints a link that signs you in.</p>
    </main>`;
  }

  private renderShell() {
    const client = this.client!;
    return html`<div class="shell">
      <header class="topbar">
        <strong>OpenClaw</strong>
        ${this.renderConnection()}
        <button class="link" @click=${this.signOut}>Sign out</button>
      </header>
      <nav class="nav" aria-label="Views">
        ${VIEWS.map(
          (v) => html`<a href="#/${v.id}" aria-current=${v.id === this.view ? "page" : "false"}
            >${v.label}${v.id === "approvals" && this.pendingApprovals > 0 ? html` <span class="badge" aria-label="pending">${this.pendingApprovals}</span>` : nothing}</a
          >`,
        )}
      </nav>
      <main class="view" id="view">${this.renderView(client)}</main>
    </div>`;
  }

  private renderConnection() {
    const conn = this.conn;
    if (!conn) return nothing;
    if (conn.kind === "open") return html`<span class="conn ok" data-testid="connection">connected · gateway ${conn.hello.server.version}</span>`;
    if (conn.kind === "connecting") return html`<span class="conn" data-testid="connection">connecting…</span>`;
    if (conn.kind === "closed")
      return html`<span class="conn down" role="status" data-testid="connection">disconnected (${conn.reason}); retrying in ${Math.round(conn.retryInMs / 100) / 10} s</span>`;
    return nothing;
  }

  private renderView(client: GatewayClient) {
    const g = this.generation;
    switch (this.view) {
      case "chat":
        return html`<oc-chat-view .client=${client} .generation=${g}></oc-chat-view>`;
      case "sessions":
        return html`<oc-sessions-view .client=${client} .generation=${g}></oc-sessions-view>`;
      case "approvals":
        return html`<oc-approvals-view .client=${client} .generation=${g} .store=${this.approvals} .pendingCount=${this.pendingApprovals}></oc-approvals-view>`;
      case "channels":
        return html`<oc-channels-view .client=${client} .generation=${g}></oc-channels-view>`;
      case "agents":
        return html`<oc-agents-view .client=${client} .generation=${g}></oc-agents-view>`;
      case "logs":
        return html`<oc-logs-view .client=${client} .generation=${g}></oc-logs-view>`;
      case "traces":
        return html`<oc-traces-view .client=${client} .generation=${g} .runId=${this.item}></oc-traces-view>`;
      case "review":
        return html`<oc-review-view .client=${client} .generation=${g}></oc-review-view>`;
      case "usage":
        return html`<oc-usage-view .client=${client} .generation=${g}></oc-usage-view>`;
      case "config":
        return html`<oc-config-view .client=${client} .generation=${g}></oc-config-view>`;
      case "cron":
        return html`<oc-cron-view .client=${client} .generation=${g}></oc-cron-view>`;
      case "tasks":
        return html`<oc-tasks-view .client=${client} .generation=${g}></oc-tasks-view>`;
      case "memory":
        return html`<oc-memory-view .client=${client} .generation=${g}></oc-memory-view>`;
    }
  }
}

/** The WebSocket lives where the page does (the root, or gateway.controlUi.basePath). */
function websocketUrl(): string {
  const url = new URL(".", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.toString();
}

customElements.define("openclaw-app", OpenClawApp);
