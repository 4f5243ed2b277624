import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, errorBox, formatNumber, formatTime, unavailable } from "../view-helpers.js";
import { itemHash } from "../routes.js";
import { outcomeBadge } from "./trace-tree.js";
import { REVIEW_STATUSES, withLabel, type ReviewItem, type ReviewList, type ReviewStatus } from "./review-record.js";
import { renderFeedback, renderJudge, renderLabel, renderReasons } from "./review-parts.js";
import type { ReviewLabelledDetail } from "./review-label-form.js";
import "./review-label-form.js";

const LIMIT = 200;
const REGRADE = "traces.review.regrade";

/**
 * The review queue (traces.review.list): runs the gateway routed to an operator by rule, newest
 * first, filtered by status, with how many wait and how many are labelled. Each opens its run's
 * trace; Pass / Fail (traces.review.label, operator.write) labels it in place. When verdicts of
 * the judge are outdated (an earlier rubric) or errors, "Grade again" (traces.review.regrade,
 * operator.write) has the gateway's judge grade them again in the background.
 */
export class ReviewView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    status: { state: true },
    items: { state: true },
    counts: { state: true },
    error: { state: true },
    missing: { state: true },
    loaded: { state: true },
    regraded: { state: true },
  };
  declare status: ReviewStatus;
  declare items: ReviewItem[];
  declare counts: ReviewList["counts"] | undefined;
  declare error: string | undefined;
  declare missing: boolean;
  declare loaded: boolean;
  /** What the last "Grade again" did. */
  declare regraded: string | undefined;

  constructor() {
    super();
    this.status = "pending";
    this.items = [];
    this.missing = false;
    this.loaded = false;
  }

  protected async load(): Promise<void> {
    const status = this.status;
    const res = await call<ReviewList>(this.client, "traces.review.list", { status, limit: LIMIT });
    // The filter moved on while this list loaded: its answer is not wanted any more.
    if (status !== this.status) return;
    this.missing = !res.ok && res.unavailable;
    this.error = res.ok || res.unavailable ? undefined : res.message;
    if (!res.ok) return;
    this.items = res.value.items;
    this.counts = res.value.counts;
    this.loaded = true;
  }

  private pick(event: Event): void {
    this.status = (event.target as HTMLSelectElement).value as ReviewStatus;
    this.items = [];
    this.loaded = false;
    void this.load();
  }

  /** Drops the outdated and failed verdicts; the judge grades those runs again as it gets to them. */
  private async regrade(): Promise<void> {
    const res = await call<{ dropped: number }>(this.client, REGRADE, {});
    this.error = res.ok ? undefined : res.message;
    if (!res.ok) return;
    this.regraded = `${formatNumber(res.value.dropped)} verdict(s) dropped: the judge grades those runs again in the background (Refresh shows its new verdicts).`;
    await this.load();
  }

  /** A label the gateway stored: the row shows it at once and the counts follow. */
  private labelled(event: CustomEvent<ReviewLabelledDetail>): void {
    const { runId, label, note, at } = event.detail;
    const before = this.items.find((item) => item.run.runId === runId);
    if (!before) return;
    this.items = this.items.map((item) => (item === before ? withLabel(item, label, note, at) : item));
    if (this.counts && before.labelledAt === undefined) this.counts = { pending: this.counts.pending - 1, labelled: this.counts.labelled + 1 };
  }

  protected render() {
    if (this.missing) return html`<section aria-label="Review"><h2>Review queue</h2>${unavailable("traces.review.list")}</section>`;
    return html`<section aria-label="Review" @review-labelled=${this.labelled}>
      <h2>Review queue</h2>
      <p class="hint">Runs routed here by rule (a 👎, a costly run, a new model, a random sample) to be labelled pass or fail. <a href="#/traces">All runs</a></p>
      <div class="toolbar review-filter">
        <label>Status <select name="status" @change=${this.pick}>
          ${REVIEW_STATUSES.map((s) => html`<option value=${s} ?selected=${s === this.status}>${s}</option>`)}
        </select></label>
        <button type="button" @click=${() => this.load()}>Refresh</button>
        ${this.counts ? html`<span class="review-counts" role="status">${formatNumber(this.counts.pending)} waiting · ${formatNumber(this.counts.labelled)} labelled</span>` : nothing}
        ${this.canRegrade() ? html`<button type="button" class="regrade" @click=${() => this.regrade()}>Grade again</button>` : nothing}
      </div>
      ${this.regraded ? html`<p class="hint regraded" role="status">${this.regraded}</p>` : nothing}
      ${errorBox(this.error)}
      ${this.items.length > 0 ? html`<ul class="review-list">${this.items.map((item) => this.renderItem(item))}</ul>` : nothing}
      ${this.loaded && this.items.length === 0 ? html`<p class="hint">No runs ${this.status === "all" ? "in the queue" : this.status === "pending" ? "wait for review" : "are labelled"}.</p>` : nothing}
    </section>`;
  }

  /** "Grade again" is offered to operator.write when a verdict listed is outdated or an error. */
  private canRegrade(): boolean {
    return this.client.may(REGRADE) && this.items.some((item) => item.judge !== undefined && (item.judge.outdated === true || item.judge.verdict === "error"));
  }

  private renderItem(item: ReviewItem) {
    const run = item.run;
    return html`<li class="card review-item" data-run=${run.runId}>
      <div class="review-head">
        <a class="key" href=${itemHash("traces", run.runId)}>${run.runId}</a>
        ${outcomeBadge(run.outcome)} ${renderReasons(item.reasons)}
      </div>
      <dl class="review-facts">
        <dt>Queued</dt><dd>${formatTime(item.queuedAt)}</dd>
        <dt>Session</dt><dd class="key">${run.sessionKey}</dd>
        <dt>Model</dt><dd>${run.model ?? "—"}</dd>
        <dt>Tokens</dt><dd class="tokens">${formatNumber(item.totalTokens)}</dd>
        <dt>Feedback</dt><dd class="feedback">${renderFeedback(item.feedback)}</dd>
        <dt>Label</dt><dd class="label">${renderLabel(item)}</dd>
        ${item.judge ? html`<dt>Judge</dt><dd class="judge">${renderJudge(item.judge)}</dd>` : nothing}
      </dl>
      <oc-review-label-form .client=${this.client} .runId=${run.runId}></oc-review-label-form>
    </li>`;
  }
}

customElements.define("oc-review-view", ReviewView);
