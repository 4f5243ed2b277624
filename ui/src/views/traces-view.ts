import { html, nothing, type PropertyValues } from "lit";
import { ViewElement } from "./view-element.js";
import { call, errorBox, formatNumber, formatTime, unavailable } from "../view-helpers.js";
import { itemHash } from "../routes.js";
import type { TraceDetail, TraceSummary } from "./trace-record.js";
import { duration, outcomeBadge, renderTraceTree } from "./trace-tree.js";
import { withLabel, type FeedbackRating, type ReviewItem, type ReviewList } from "./review-record.js";
import { renderFeedback, renderLabel, renderReasons } from "./review-parts.js";
import type { ReviewLabelledDetail } from "./review-label-form.js";
import type { RunFeedbackDetail } from "./run-feedback.js";
import "./review-label-form.js";
import "./run-feedback.js";
import "./trace-search.js";

const LIMITS = [50, 200, 1000] as const;
/**
 * Run traces: the newest runs from traces.list (filtered by session, up to a limit), a search of
 * them by words or meaning (trace-search.ts), and the run the address names (`#/traces/<runId>`)
 * as a tree from traces.get, with its rating and label (traces.feedback, traces.review.label:
 * operator.write) and, when it is queued, its review state.
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
    review: { state: true },
    rated: { state: true },
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
  /** The opened run's review queue entry, when it is queued. */
  declare review: ReviewItem | undefined;
  /** A rating given here to a run the queue does not hold (a 👍 queues nothing). */
  declare rated: FeedbackRating | undefined;

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
    this.review = undefined;
    this.rated = undefined;
    const [res] = await Promise.all([call<TraceDetail>(this.client, "traces.get", { runId }), this.loadReview(runId)]);
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

  /** The run's entry in the review queue (its reasons, feedback and label), if it is queued. */
  private async loadReview(runId: string): Promise<void> {
    if (!this.client.has("traces.review.list")) return;
    const res = await call<ReviewList>(this.client, "traces.review.list", { status: "all", runId, limit: 1 });
    if (runId !== this.runId || !res.ok) return;
    this.review = res.value.items.find((item) => item.run.runId === runId);
  }

  private feedbackGiven(event: CustomEvent<RunFeedbackDetail>): void {
    const { runId, rating } = event.detail;
    if (runId !== this.runId) return;
    this.rated = rating;
    // A 👎 queues the run, a 👍 may take it out: the queue is read again for what it holds now.
    void this.loadReview(runId);
  }

  private labelGiven(event: CustomEvent<ReviewLabelledDetail>): void {
    const { runId, label, note, at } = event.detail;
    if (runId !== this.runId) return;
    if (this.review) this.review = withLabel(this.review, label, note, at);
    else void this.loadReview(runId);
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
      <p class="hint"><a href="#/review">Review queue</a>: the runs routed to an operator to label pass or fail.</p>
      ${this.runId !== undefined ? this.renderRun(this.runId) : nothing}
      <form class="inline trace-filter" @submit=${this.filter}>
        <label>Session <input name="sessionKey" placeholder="all sessions" .value=${this.sessionKey} /></label>
        <label>Limit <select name="limit" @change=${(e: Event) => (e.target as HTMLSelectElement).form?.requestSubmit()}>
          ${LIMITS.map((n) => html`<option value=${n} ?selected=${n === this.limit}>${n}</option>`)}
        </select></label>
        <button type="submit">Refresh</button>
      </form>
      <oc-trace-search .client=${this.client} .generation=${this.generation} .sessionKey=${this.sessionKey}></oc-trace-search>
      ${errorBox(this.error)}
      ${this.renderList()}
      ${this.rows.length === 0 && !this.error ? html`<p class="hint">No traces${this.sessionKey.trim() ? " for this session" : ""}.</p>` : nothing}
    </section>`;
  }

  private renderRun(runId: string) {
    return html`<div class="trace-run">
      <a href="#/traces">All runs</a>
      ${this.getMissing ? unavailable("traces.get") : nothing} ${errorBox(this.detailError)}
      ${this.detail ? this.renderReview(runId) : nothing}
      ${this.detail ? renderTraceTree(this.detail) : this.detailError || this.getMissing ? nothing : html`<p class="hint" role="status">Loading run ${runId}…</p>`}
    </div>`;
  }

  /** The run's review state and, for operator.write, 👍 / 👎 and Pass / Fail. */
  private renderReview(runId: string) {
    const review = this.review;
    return html`<div class="run-review" @run-feedback=${this.feedbackGiven} @review-labelled=${this.labelGiven}>
      ${
        review
          ? html`<p class="review-state">In the review queue: ${renderReasons(review.reasons)} · feedback <span class="feedback">${renderFeedback(review.feedback)}</span> · label
              <span class="label">${renderLabel(review)}</span></p>`
          : nothing
      }
      <oc-run-feedback .client=${this.client} .runId=${runId} .rating=${review?.feedback?.rating ?? this.rated} withNote></oc-run-feedback>
      <oc-review-label-form .client=${this.client} .runId=${runId}></oc-review-label-form>
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
