import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, errorBox, formatNumber, formatTime, readOnlyLine } from "../view-helpers.js";

interface SessionRow {
  key: string;
  label?: string;
  displayName?: string;
  model?: string;
  thinkingLevel?: string;
  totalTokens?: number;
  updatedAt?: number | null;
  hasActiveRun?: boolean;
}

/**
 * Sessions: search, and per row set the model or thinking level (operator.write), reset, compact,
 * delete (operator.admin); a connection without the scope sees the rows without those controls.
 */
export class SessionsView extends ViewElement {
  static properties = { ...ViewElement.properties, rows: { state: true }, error: { state: true }, notice: { state: true }, search: { state: true } };
  declare rows: SessionRow[];
  declare error: string | undefined;
  declare notice: string | undefined;
  declare search: string;

  constructor() {
    super();
    this.rows = [];
    this.search = "";
  }

  protected async load(): Promise<void> {
    const res = await call<{ sessions: SessionRow[] }>(this.client, "sessions.list", { limit: 500, ...(this.search ? { search: this.search } : {}) });
    if (res.ok) {
      this.rows = res.value.sessions;
      this.error = undefined;
    } else this.error = res.message;
  }

  private onSearch(event: Event): void {
    this.search = (event.target as HTMLInputElement).value;
    void this.load();
  }

  private async act(method: string, params: Record<string, unknown>, done: string): Promise<void> {
    const res = await call(this.client, method, params);
    if (res.ok) {
      this.notice = done;
      this.error = undefined;
    } else this.error = res.message;
    await this.load();
  }

  private patch(event: SubmitEvent, key: string): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const model = (form.elements.namedItem("model") as HTMLInputElement).value.trim();
    const thinking = (form.elements.namedItem("thinking") as HTMLSelectElement).value;
    void this.act("sessions.patch", { key, model: model || null, thinkingLevel: thinking || null }, `Updated ${key}`);
  }

  private confirmThen(message: string, run: () => void): void {
    if (window.confirm(message)) run();
  }

  /** What this connection may not change, in words: model and thinking need operator.write, the row actions operator.admin. */
  private readOnlyHint() {
    if (this.client.grantsScopeOf("sessions.delete")) return nothing;
    const text = this.client.grantsScopeOf("sessions.patch")
      ? "Reset, compact and delete need operator.admin."
      : "Read-only: setting a session's model or thinking needs operator.write; reset, compact and delete need operator.admin.";
    return readOnlyLine(text);
  }

  /** The model and thinking form (sessions.patch), or the two as text for a connection that may not patch. */
  private renderSettings(row: SessionRow) {
    if (!this.client.may("sessions.patch")) return html`${row.model ?? "default"} / ${row.thinkingLevel ?? "default"}`;
    return html`<form class="inline" @submit=${(e: SubmitEvent) => this.patch(e, row.key)}>
      <input name="model" aria-label="Model for ${row.key}" placeholder="default" .value=${row.model ?? ""} />
      <select name="thinking" aria-label="Thinking for ${row.key}">
        ${["", "off", "minimal", "low", "medium", "high"].map((t) => html`<option value=${t} ?selected=${(row.thinkingLevel ?? "") === t}>${t || "default"}</option>`)}
      </select>
      <button type="submit">Save</button>
    </form>`;
  }

  /** Reset, Compact and Delete, each only where the connection may call its method. */
  private renderActions(row: SessionRow) {
    return html`${
      this.client.may("sessions.reset")
        ? html`<button type="button" @click=${() => this.confirmThen(`Start a new conversation in ${row.key}?`, () => void this.act("sessions.reset", { key: row.key }, `Reset ${row.key}`))}>Reset</button>`
        : nothing
    }
      ${this.client.may("sessions.compact") ? html`<button type="button" @click=${() => void this.act("sessions.compact", { key: row.key }, `Compacted ${row.key}`)}>Compact</button>` : nothing}
      ${
        this.client.may("sessions.delete")
          ? html`<button type="button" class="danger" @click=${() => this.confirmThen(`Delete ${row.key}?`, () => void this.act("sessions.delete", { key: row.key }, `Deleted ${row.key}`))}>Delete</button>`
          : nothing
      }`;
  }

  protected render() {
    return html`<section aria-label="Sessions">
      <h2>Sessions</h2>
      <input type="search" placeholder="Search key or label" aria-label="Search sessions" .value=${this.search} @input=${this.onSearch} />
      ${errorBox(this.error)} ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${this.readOnlyHint()}
      <div class="table-wrap">
        <table>
          <thead><tr><th>Session</th><th>Model / thinking</th><th>Tokens</th><th>Updated</th><th>Actions</th></tr></thead>
          <tbody>
            ${this.rows.map(
              (row) => html`<tr data-session=${row.key}>
                <td><div class="key">${row.key}</div>${row.label ? html`<div class="label">${row.label}</div>` : nothing}${row.hasActiveRun ? html`<span class="badge">running</span>` : nothing}</td>
                <td>${this.renderSettings(row)}</td>
                <td>${formatNumber(row.totalTokens)}</td>
                <td>${formatTime(row.updatedAt)}</td>
                <td class="actions">${this.renderActions(row)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.rows.length === 0 && !this.error ? html`<p class="hint">No sessions yet.</p>` : nothing}
    </section>`;
  }
}

customElements.define("oc-sessions-view", SessionsView);
