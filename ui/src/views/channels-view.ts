import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, cellText, errorBox, formatTime } from "../view-helpers.js";

interface PairingRequest {
  channel: string;
  code: string;
  accountId: string;
  senderId: string;
  senderName?: string;
  expiresAt?: number;
}

/** Each channel account's state, and people waiting to be let in (pairing codes) with Approve and Deny. */
export class ChannelsView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    status: { state: true },
    requests: { state: true },
    error: { state: true },
    pairingError: { state: true },
    notice: { state: true },
  };
  declare status: { channelOrder: string[]; channelAccounts: Record<string, Record<string, unknown>[]> } | undefined;
  declare requests: PairingRequest[];
  declare error: string | undefined;
  declare pairingError: string | undefined;
  declare notice: string | undefined;

  constructor() {
    super();
    this.requests = [];
  }

  protected async load(): Promise<void> {
    const status = await call<{ channelOrder: string[]; channelAccounts: Record<string, Record<string, unknown>[]> }>(this.client, "channels.status");
    if (status.ok) this.status = status.value;
    else this.error = status.message;
    if (status.ok && status.value.channelOrder.length === 0) return;
    const pairing = await call<{ requests: PairingRequest[] }>(this.client, "pairing.list");
    if (pairing.ok) this.requests = pairing.value.requests;
    else this.pairingError = pairing.message;
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
      ${this.status && order.length === 0 ? html`<p class="hint">No chat channel is configured on this gateway (see channels.* in the config).</p>` : nothing}
      ${order.map(
        (channel) => html`<h3>${channel}</h3>
          <ul class="cards">
            ${(this.status!.channelAccounts[channel] ?? []).map(
              (a) => html`<li class="card">
                <strong>${cellText(a.accountId)}</strong>
                <span class="badge ${a.connected || a.running ? "ok" : "down"}">${a.connected ? "connected" : a.running ? "running" : "stopped"}</span>
                ${a.lastError ? html`<p class="error">${cellText(a.lastError)}</p>` : nothing}
                <dl>${["configured", "enabled", "dmPolicy", "reconnectAttempts"].filter((k) => a[k] !== undefined).map((k) => html`<dt>${k}</dt><dd>${cellText(a[k])}</dd>`)}
                  ${a.lastConnectedAt ? html`<dt>last connected</dt><dd>${formatTime(a.lastConnectedAt as number)}</dd>` : nothing}</dl>
              </li>`,
            )}
          </ul>`,
      )}
      ${order.length > 0 ? this.renderPairing() : nothing}
    </section>`;
  }

  private renderPairing() {
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
              <button type="button" @click=${() => this.approve(r)}>Approve</button>
              ${this.client.has("pairing.reject") ? html`<button type="button" class="danger" @click=${() => this.reject(r)}>Deny</button>` : nothing}
            </div>
          </li>`,
        )}
      </ul>
      <p class="hint">Requests nobody answers expire after an hour.</p>`;
  }
}

customElements.define("oc-channels-view", ChannelsView);
