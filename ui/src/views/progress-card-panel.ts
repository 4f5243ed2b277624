import { html, LitElement, nothing, type PropertyValues } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import type { GatewayClient } from "../gateway-client.js";
import { renderMarkdown } from "../markdown.js";
import { splitLeadingBar } from "./progress-card-bar.js";
import { ClientEvents } from "./client-events.js";

interface ProgressCard {
  sessionKey: string;
  revision: number;
  updatedAt: number;
  markdown?: string;
  steps?: { step: string; status: "pending" | "in_progress" | "completed" }[];
}

/** How long a refresh may take before the panel offers to retry: the gateway's two-minute cut-off and a margin. */
const REFRESH_WAIT_MS = 130_000;

const STATUS_MARK = { completed: "✓", in_progress: "▶", pending: "○" } as const;
const STATUS_TEXT = { completed: "done", in_progress: "in progress", pending: "pending" } as const;

/**
 * The session's progress card (the agent's `progress_card`), above the chat's composer: its plan
 * with each step's status and its Markdown note through the transcript's sanitizing renderer.
 * Read with `progressCard.get` when the session or the link changes and again on every
 * `progressCard.changed` for this session (the event is a hint; the read is the card). A failed
 * read keeps the card last shown. "Refresh task progress" asks the agent to bring the card up to
 * date; the button stays busy until a newer card is read.
 */
export class ProgressCardPanel extends LitElement {
  static properties = {
    client: { attribute: false },
    sessionKey: {},
    generation: { type: Number },
    card: { state: true },
    problem: { state: true },
    refreshing: { state: true },
  };
  declare client: GatewayClient | undefined;
  declare sessionKey: string;
  /** Bumped by the app on each hello-ok: the card is read again. */
  declare generation: number;
  declare card: ProgressCard | null;
  declare problem: string | undefined;
  /** A refresh asked for and not yet seen: its key (a retry sends the same one) and the revision it must exceed. */
  declare refreshing: { key: string; baseline: number; state: "pending" | "failed" } | undefined;
  private readonly events = new ClientEvents((event, payload) => this.onEvent(event, payload as { sessionKey?: string }));
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reads in flight are numbered: only the newest one's answer is shown. */
  private reads = 0;

  constructor() {
    super();
    this.sessionKey = "";
    this.generation = 0;
    this.card = null;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.refreshTimer);
    this.events.release();
  }

  protected updated(changed: PropertyValues): void {
    if (!this.client?.hello || !(changed.has("client") || changed.has("sessionKey") || changed.has("generation"))) return;
    this.events.follow(this.client);
    if (changed.has("sessionKey") && this.card && this.card.sessionKey !== this.sessionKey) {
      this.card = null;
      this.refreshing = undefined;
    }
    void this.load();
  }

  private onEvent(event: string, payload: { sessionKey?: string }): void {
    if (event !== "progressCard.changed" || !payload?.sessionKey) return;
    if (payload.sessionKey === this.sessionKey || payload.sessionKey === this.card?.sessionKey) void this.load();
  }

  private async load(): Promise<void> {
    if (!this.client?.has("progressCard.get") || !this.sessionKey) return;
    const key = this.sessionKey;
    const read = ++this.reads;
    try {
      const res = await this.client.request<{ card: ProgressCard | null }>("progressCard.get", { sessionKey: key });
      if (read !== this.reads || key !== this.sessionKey) return;
      this.card = res.card;
      this.problem = undefined;
      // A refresh is confirmed by a newer saved card, not by its request's answer.
      if (this.refreshing && (!res.card || res.card.revision > this.refreshing.baseline)) this.refreshing = undefined;
    } catch (err) {
      if (read === this.reads) this.problem = `progressCard.get failed: ${(err as Error).message}`;
    }
  }

  /**
   * Asks the agent to reconcile the card (`progressCard.refresh`, no chat message). The card last
   * shown stays until a newer one is saved; a failed request keeps its key so a retry is the same
   * request.
   */
  private async refresh(): Promise<void> {
    const card = this.card;
    if (!this.client || !card) return;
    const key = this.refreshing?.key ?? crypto.randomUUID();
    this.refreshing = { key, baseline: this.refreshing?.baseline ?? card.revision, state: "pending" };
    try {
      const res = await this.client.request<{ revision: number }>("progressCard.refresh", { sessionKey: this.sessionKey, idempotencyKey: key });
      if (this.refreshing?.key !== key) return;
      this.refreshing = { key, baseline: res.revision, state: "pending" };
      this.problem = undefined;
      // The agent's status turn is cut off after two minutes; past that, no newer card is coming.
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => {
        if (this.refreshing?.key !== key) return;
        this.refreshing = { ...this.refreshing, state: "failed" };
        this.problem = "The agent has not updated the card yet; retry to ask again.";
      }, REFRESH_WAIT_MS);
    } catch (err) {
      if (this.refreshing?.key === key) this.refreshing = { ...this.refreshing, state: "failed" };
      this.problem = `progressCard.refresh failed: ${(err as Error).message}`;
    }
  }

  private renderRefresh() {
    if (!this.client?.may("progressCard.refresh")) return nothing;
    const pending = this.refreshing?.state === "pending";
    return html`<button type="button" class="refresh" data-testid="progress-card-refresh" ?disabled=${pending} aria-busy=${pending ? "true" : "false"} @click=${() => void this.refresh()}>
      ${pending ? "Refreshing…" : this.refreshing?.state === "failed" ? "Retry refresh" : "Refresh task progress"}
    </button>`;
  }

  protected render() {
    const card = this.card;
    if (!card) return this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing;
    const steps = card.steps ?? [];
    const done = steps.filter((s) => s.status === "completed").length;
    const note = card.markdown ? splitLeadingBar(card.markdown) : undefined;
    return html`<section class="progress-card" aria-label="Task progress" data-testid="progress-card" data-revision=${card.revision}>
      <header>
        <strong>Task progress</strong>
        ${steps.length > 0 ? html`<span class="count">${done}/${steps.length} done</span>` : nothing}
        <time datetime=${new Date(card.updatedAt).toISOString()}>updated ${new Date(card.updatedAt).toLocaleTimeString()}</time>
        ${this.renderRefresh()}
      </header>
      ${note?.bar ? html`<label class="bar">${note.bar.label}<progress value=${note.bar.value} max=${note.bar.max} aria-label=${note.bar.label}></progress></label>` : nothing}
      ${
        steps.length > 0
          ? html`<ol class="steps">
              ${steps.map(
                (s) =>
                  html`<li class=${`step ${s.status}`} data-status=${s.status}>
                    <span class="mark" aria-hidden="true">${STATUS_MARK[s.status]}</span> ${s.step}
                    <span class="visually-hidden">(${STATUS_TEXT[s.status]})</span>
                  </li>`,
              )}
            </ol>`
          : nothing
      }
      ${note?.rest.trim() ? html`<div class="note md">${unsafeHTML(renderMarkdown(note.rest))}</div>` : nothing}
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
    </section>`;
  }
}

customElements.define("oc-progress-card-panel", ProgressCardPanel);
