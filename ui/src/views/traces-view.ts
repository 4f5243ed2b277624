import { html, nothing, type PropertyValues } from "lit";
import { ViewElement } from "./view-element.js";
import { call, errorBox, formatNumber, formatTime, unavailable } from "../view-helpers.js";
import { itemHash } from "../routes.js";
import type { TraceDetail, TraceSummary } from "./trace-record.js";
import { duration, outcomeBadge, renderTraceTree } from "./trace-tree.js";

const LIMITS = [50, 200, 1000] as const;

/**
 * Run traces: the newest runs from traces.list (filtered by session, up to a limit), and the run
 * the address names (`#/traces/<runId>`) as a tree from traces.get.
 */
export class TracesView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    runId: { attribute: false },
    rows: { state: true },
    detail: { state: true },
    error: { state: true },
    detailError: { state: true },
    listMissing: { state: true },
    getMissing: { state: true },
    sessionKey: { state: true },
    limit: { state: true },
  };
  /** The run the address names; undefined: only the list. */
  declare runId: string | undefined;
  declare rows: TraceSummary[];
  declare detail: TraceDetail | undefined;
  declare error: string | undefined;
  declare detailError: string | undefined;
  declare listMissing: boolean;
  declare getMissing: boolean;
  declare sessionKey: string;
  declare limit: number;

  constructor() {
    super();
    this.rows = [];
    this.sessionKey = "";
    this.limit = LIMITS[0];
    this.listMissing = false;
    this.getMissing = false;
  }

  protected updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // A new run named while the view stays (a row's link, the back button): only that run loads.
    if (changed.has("runId") && !changed.has("generation") && !changed.has("client") && this.client?.hello) void this.loadRun();
  }

  protected async load(): Promise<void> {
    await Promise.all([this.loadList(), this.loadRun()]);
  }

  private async loadList(): Promise<void> {
    const sessionKey = this.sessionKey.trim();
    const res = await call<{ traces: TraceSummary[] }>(this.client, "traces.list", { limit: this.limit, ...(sessionKey ? { sessionKey } : {}) });
    this.listMissing = !res.ok && res.unavailable;
    if (res.ok) {
      this.rows = res.value.traces;
      this.error = undefined;
    } else if (!res.unavailable) this.error = res.message;
  }

  private async loadRun(): Promise<void> {
    const runId = this.runId;
    if (runId === undefined) {
      this.detail = undefined;
      this.detailError = undefined;
      return;
    }
    // A stored trace never changes: the one shown is not asked for again (a reconnect, Refresh).
    if (this.detail?.trace.runId === runId) return;
    this.detail = undefined;
    this.detailError = undefined;
    const res = await call<TraceDetail>(this.client, "traces.get", { runId });
    // The address moved on while this run loaded: its answer is not wanted any more.
    if (runId !== this.runId) return;
    this.getMissing = !res.ok && res.unavailable;
    this.detailError = res.ok || res.unavailable ? undefined : res.message;
    if (!res.ok) return;
    this.detail = res.value;
    // The run opened: reading (and the keyboard) go on from its heading.
    await this.updateComplete;
    this.querySelector<HTMLElement>(".trace h3")?.focus();
  }

  private filter(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.sessionKey = (form.elements.namedItem("sessionKey") as HTMLInputElement).value;
    this.limit = Number((form.elements.namedItem("limit") as HTMLSelectElement).value);
    void this.load();
  }

  protected render() {
    if (this.listMissing) return html`<section aria-label="Traces"><h2>Traces</h2>${unavailable("traces.list")}</section>`;
    return html`<section aria-label="Traces">
      <h2>Traces</h2>
      ${this.runId !== undefined ? this.renderRun(this.runId) : nothing}
      <form class="inline trace-filter" @submit=${this.filter}>
        <label>Session <input name="sessionKey" placeholder="all sessions" .value=${this.sessionKey} /></label>
        <label>Limit <select name="limit" @change=${(e: Event) => (e.target as HTMLSelectElement).form?.requestSubmit()}>
          ${LIMITS.map((n) => html`<option value=${n} ?selected=${n === this.limit}>${n}</option>`)}
        </select></label>
        <button type="submit">Refresh</button>
      </form>
      ${errorBox(this.error)}
      ${this.renderList()}
      ${this.rows.length === 0 && !this.error ? html`<p class="hint">No traces${this.sessionKey.trim() ? " for this session" : ""}.</p>` : nothing}
    </section>`;
  }

  private renderRun(runId: string) {
    return html`<div class="trace-run">
      <a href="#/traces">All runs</a>
      ${this.getMissing ? unavailable("traces.get") : nothing} ${errorBox(this.detailError)}
      ${this.detail ? renderTraceTree(this.detail) : this.detailError || this.getMissing ? nothing : html`<p class="hint" role="status">Loading run ${runId}…</p>`}
    </div>`;
  }

  private renderList() {
    if (this.rows.length === 0) return nothing;
    return html`<div class="table-wrap">
      <table class="trace-list">
        <thead><tr><th>Started</th><th>Run</th><th>Outcome</th><th>Duration</th><th>Source</th><th>Session</th><th>Model</th><th>Tokens in / out</th><th>Calls model / tool</th></tr></thead>
        <tbody>
          ${this.rows.map(
            (row) => html`<tr data-run=${row.runId} aria-current=${row.runId === this.runId ? "true" : "false"}>
              <td>${formatTime(row.startedAt)}</td>
              <td><a class="key" href=${itemHash("traces", row.runId)}>${row.runId}</a></td>
              <td>${outcomeBadge(row.outcome)}</td>
              <td>${duration(row.durationMs)}</td>
              <td>${row.source}</td>
              <td><span class="key">${row.sessionKey}</span></td>
              <td>${row.model ?? "—"}</td>
              <td>${formatNumber(row.inputTokens)} / ${formatNumber(row.outputTokens)}</td>
              <td>${formatNumber(row.modelCalls)} / ${formatNumber(row.toolCalls)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }
}

customElements.define("oc-traces-view", TracesView);
