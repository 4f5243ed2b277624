import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, cellText, errorBox, formatTime, readOnlyLine } from "../view-helpers.js";
import { outcomeReasonText, type StartOutcome } from "./channel-start-outcome.js";

interface PairingRequest {
  channel: string;
  code: string;
  accountId: string;
  senderId: string;
  senderName?: string;
  expiresAt?: number;
}

type Account = Record<string, unknown>;

/**
 * What the last Stop or Start on an account came to, shown on its card while the account is still
 * running (or not) as the status read after it said; a later change made elsewhere hides it.
 */
interface AccountNote {
  text: string;
  error?: boolean;
  whileRunning?: boolean;
}

const isRunning = (a: Account | undefined) => Boolean(a?.running || a?.connected);

/** How long a handed-off start is followed in `channels.status` before the card stops saying "Starting…". */
const START_FOLLOW_POLLS = 10;
const START_FOLLOW_INTERVAL_MS = 1_000;

/**
 * Each channel account's state with Stop / Start (operator.admin), and people waiting to be let in
 * (pairing codes) with Approve and Deny (operator.admin, as is reading them).
 */
export class ChannelsView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    status: { state: true },
    requests: { state: true },
    error: { state: true },
    pairingError: { state: true },
    notice: { state: true },
    accountNotes: { state: true },
    busyAccount: { state: true },
  };
  declare status: { channelOrder: string[]; channelAccounts: Record<string, Record<string, unknown>[]> } | undefined;
  declare requests: PairingRequest[];
  declare error: string | undefined;
  declare pairingError: string | undefined;
  declare notice: string | undefined;
  declare accountNotes: Record<string, AccountNote>;
  /** The account (`channel/accountId`) whose Stop or Start is waiting for the gateway; its buttons are disabled. */
  declare busyAccount: string | undefined;

  constructor() {
    super();
    this.requests = [];
    this.accountNotes = {};
  }

  protected async load(): Promise<void> {
    const status = await call<{ channelOrder: string[]; channelAccounts: Record<string, Record<string, unknown>[]> }>(this.client, "channels.status");
    if (status.ok) this.status = status.value;
    else this.error = status.message;
    if ((status.ok && status.value.channelOrder.length === 0) || !this.client.grantsScopeOf("pairing.list")) return;
    const pairing = await call<{ requests: PairingRequest[] }>(this.client, "pairing.list");
    if (pairing.ok) this.requests = pairing.value.requests;
    else this.pairingError = pairing.message;
  }

  private account(channel: string, accountId: string): Account | undefined {
    return this.status?.channelAccounts[channel]?.find((a) => a.accountId === accountId);
  }

  private note(key: string, note: AccountNote): void {
    this.accountNotes = { ...this.accountNotes, [key]: note };
  }

  /** Ties the account's note to the running state the status just read shows. */
  private pinNote(channel: string, accountId: string): void {
    const key = `${channel}/${accountId}`;
    const note = this.accountNotes[key];
    if (note) this.note(key, { ...note, whileRunning: isRunning(this.account(channel, accountId)) });
  }

  private async stopAccount(channel: string, accountId: string): Promise<void> {
    const key = `${channel}/${accountId}`;
    if (!window.confirm(`Stop ${key}? It stays stopped, also across config reloads, until Start or a gateway restart.`)) return;
    this.busyAccount = key;
    const res = await call<{ stopped: boolean }>(this.client, "channels.stop", { channel, accountId });
    if (!res.ok) this.note(key, { text: res.message, error: true });
    else this.note(key, res.value.stopped ? { text: "Stopped." } : { text: "The stop did not take: its last error says why.", error: true });
    await this.load();
    this.pinNote(channel, accountId);
    this.busyAccount = undefined;
  }

  private async startAccount(channel: string, accountId: string): Promise<void> {
    const key = `${channel}/${accountId}`;
    this.busyAccount = key;
    const res = await call<{ started: boolean; outcome: StartOutcome }>(this.client, "channels.start", { channel, accountId });
    if (!res.ok) this.note(key, { text: res.message, error: true });
    else if (res.value.outcome.status === "handed-off") this.note(key, { text: "Starting…" });
    else this.note(key, { text: outcomeReasonText(res.value.outcome), error: res.value.outcome.status === "skipped" });
    await this.load();
    this.busyAccount = undefined;
    if (res.ok && res.value.outcome.status === "handed-off") await this.followStart(channel, accountId);
    else this.pinNote(channel, accountId);
  }

  /** A handed-off start says "Starting…" until `channels.status` shows the account running, for a bounded while. */
  private async followStart(channel: string, accountId: string): Promise<void> {
    const key = `${channel}/${accountId}`;
    for (let poll = 0; poll < START_FOLLOW_POLLS; poll++) {
      if (this.accountNotes[key]?.text !== "Starting…") return;
      if (isRunning(this.account(channel, accountId))) {
        this.note(key, { text: "Started.", whileRunning: true });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, START_FOLLOW_INTERVAL_MS));
      await this.load();
    }
    if (this.accountNotes[key]?.text === "Starting…") {
      this.note(key, { text: "Started, but it is not running yet: its last error says why.", error: true, whileRunning: false });
    }
  }

  private async approve(r: PairingRequest): Promise<void> {
    const res = await call(this.client, "pairing.approve", { channel: r.channel, code: r.code, accountId: r.accountId });
    if (res.ok) this.notice = `Approved ${r.senderName ?? r.senderId} on ${r.channel}.`;
    else this.pairingError = res.message;
    await this.load();
  }

  private async reject(r: PairingRequest): Promise<void> {
    const res = await call(this.client, "pairing.reject", { channel: r.channel, code: r.code, accountId: r.accountId });
    if (res.ok) this.notice = `Denied ${r.senderName ?? r.senderId} on ${r.channel}.`;
    else this.pairingError = res.message;
    await this.load();
  }

  protected render() {
    const order = this.status?.channelOrder ?? [];
    return html`<section aria-label="Channels">
      <h2>Channels</h2>
      ${errorBox(this.error)}
      ${this.renderNotesOfGoneAccounts(order)}
      ${this.status && order.length === 0 ? html`<p class="hint">No chat channel is configured on this gateway (see channels.* in the config).</p>` : nothing}
      ${order.map(
        (channel) => html`<h3>${channel}</h3>
          <ul class="cards">
            ${(this.status!.channelAccounts[channel] ?? []).map(
              (a) => html`<li class="card" data-account="${channel}/${cellText(a.accountId)}">
                <strong>${cellText(a.accountId)}</strong>
                <span class="badge ${a.connected || a.running ? "ok" : "down"}">${a.connected ? "connected" : a.running ? "running" : "stopped"}</span>
                ${a.lastError ? html`<p class="error">${cellText(a.lastError)}</p>` : nothing}
                <dl>${["configured", "enabled", "dmPolicy", "reconnectAttempts"].filter((k) => a[k] !== undefined).map((k) => html`<dt>${k}</dt><dd>${cellText(a[k])}</dd>`)}
                  ${a.lastConnectedAt ? html`<dt>last connected</dt><dd>${formatTime(a.lastConnectedAt as number)}</dd>` : nothing}</dl>
                ${this.renderLifecycle(channel, a)}
              </li>`,
            )}
          </ul>`,
      )}
      ${order.length > 0 ? this.renderPairing() : nothing}
    </section>`;
  }

  /** A note whose account the last status no longer lists (it left the config meanwhile) shows above the channels, naming it. */
  private renderNotesOfGoneAccounts(order: string[]) {
    const listed = new Set(order.flatMap((channel) => (this.status?.channelAccounts[channel] ?? []).map((a) => `${channel}/${cellText(a.accountId)}`)));
    return Object.entries(this.accountNotes)
      .filter(([key]) => !listed.has(key))
      .map(([key, note]) => html`<p class=${note.error ? "error" : "notice"} role=${note.error ? "alert" : "status"}>${key}: ${note.text}</p>`);
  }

  /** Stop while the account runs, Start while it does not: only for a connection granted operator.admin on a gateway with the method. */
  private renderLifecycle(channel: string, a: Account) {
    const accountId = String(a.accountId);
    const key = `${channel}/${accountId}`;
    const running = isRunning(a);
    const note = this.accountNotes[key]?.whileRunning === !running ? undefined : this.accountNotes[key];
    const method = running ? "channels.stop" : "channels.start";
    const allowed = this.client.may(method);
    return html`${note ? html`<p class=${note.error ? "error" : "notice"} role=${note.error ? "alert" : "status"}>${note.text}</p>` : nothing}
      ${
        allowed
          ? html`<div class="actions">
            ${
              running
                ? html`<button type="button" class="danger" ?disabled=${this.busyAccount === key} @click=${() => this.stopAccount(channel, accountId)}>Stop</button>`
                : html`<button type="button" ?disabled=${this.busyAccount === key} @click=${() => this.startAccount(channel, accountId)}>Start</button>`
            }
          </div>`
          : nothing
      }`;
  }

  /** The pairing queue with Approve and Deny; all three methods need operator.admin, so a connection without it is told so instead. */
  private renderPairing() {
    if (!this.client.grantsScopeOf("pairing.list")) {
      return html`<h3>Pairing requests</h3>${readOnlyLine("Read-only: seeing and answering pairing requests needs operator.admin.")}`;
    }
    return html`<h3>Pairing requests</h3>
      ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${errorBox(this.pairingError)}
      ${this.requests.length === 0 ? html`<p class="hint">Nobody is waiting.</p>` : nothing}
      <ul class="cards">
        ${this.requests.map(
          (r) => html`<li class="card">
            <strong>${r.senderName ?? r.senderId}</strong> on ${r.channel}/${r.accountId} · code <code>${r.code}</code>
            ${r.expiresAt ? html`<span class="hint"> · expires ${formatTime(r.expiresAt)}</span>` : nothing}
            <div class="actions">
              ${this.client.may("pairing.approve") ? html`<button type="button" @click=${() => this.approve(r)}>Approve</button>` : nothing}
              ${this.client.may("pairing.reject") ? html`<button type="button" class="danger" @click=${() => this.reject(r)}>Deny</button>` : nothing}
            </div>
          </li>`,
        )}
      </ul>
      <p class="hint">Requests nobody answers expire after an hour.</p>`;
  }
}

customElements.define("oc-channels-view", ChannelsView);
