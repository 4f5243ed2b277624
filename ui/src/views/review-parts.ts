import { html, nothing, type TemplateResult } from "lit";
import { formatTime } from "../view-helpers.js";
import type { ReviewFeedback, ReviewItem, ReviewJudge } from "./review-record.js";

/** Why a run was queued, one chip per reason (negative-feedback, high-cost, new-model, new-prompt, sampled, manual). */
export function renderReasons(reasons: readonly string[]): TemplateResult {
  return html`<span class="reasons">${reasons.map((reason) => html`<span class="chip reason" data-reason=${reason}>${reason}</span>`)}</span>`;
}

/** An operator's rating: 👍 or 👎 and its note; a dash when nobody rated the run. */
export function renderFeedback(feedback: ReviewFeedback | undefined): TemplateResult | string {
  if (!feedback) return "—";
  return html`<span class="rating" title=${formatTime(feedback.at)}>${feedback.rating === "down" ? "👎" : "👍"}</span>${feedback.note ? html` <span class="note">${feedback.note}</span>` : nothing}`;
}

/** The run's label (pass / fail) and its note, or that it waits for one. */
export function renderLabel(item: Pick<ReviewItem, "label" | "note" | "labelledAt">): TemplateResult {
  if (!item.label) return html`<span class="hint">not labelled</span>`;
  return html`<span class="badge ${item.label === "pass" ? "ok" : "bad"} verdict" title=${formatTime(item.labelledAt)}>${item.label}</span>${item.note ? html` <span class="note">${item.note}</span>` : nothing}`;
}

/** An automatic judge's verdict, its reason and the model that judged. */
export function renderJudge(judge: ReviewJudge): TemplateResult {
  return html`<span class="chip verdict" data-verdict=${judge.verdict} title=${judge.at ? formatTime(judge.at) : ""}>${judge.verdict}</span>${judge.reason ? html` <span class="note">${judge.reason}</span>` : nothing}${judge.model ? html` <span class="hint">(${judge.model})</span>` : nothing}${judge.outdated ? html` <span class="hint outdated" title="Grade again (or openclaw traces regrade) grades it with the current rubric">graded under an earlier rubric</span>` : nothing}`;
}
