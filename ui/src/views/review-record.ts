import type { TraceSummary } from "./trace-record.js";

/**
 * What `traces.review.list` answers (docs/traces.md#review-queue), declared here as the UI reads
 * it. `judge` is an automatic judge's verdict, present only on gateways that run one.
 */

export type ReviewLabel = "pass" | "fail";
export type FeedbackRating = "up" | "down";
export type ReviewStatus = "pending" | "labelled" | "all";

export const REVIEW_STATUSES: readonly ReviewStatus[] = ["pending", "labelled", "all"];

export interface ReviewFeedback {
  rating: FeedbackRating;
  note?: string;
  at: number;
}

export interface ReviewJudge {
  verdict: string;
  reason?: string;
  model?: string;
  at?: number;
  /** Graded against another rubric than the one configured now (`openclaw traces regrade` grades it again). */
  outdated?: boolean;
}

export interface ReviewItem {
  run: TraceSummary;
  queuedAt: number;
  reasons: string[];
  totalTokens: number;
  label?: ReviewLabel;
  note?: string;
  labelledAt?: number;
  feedback?: ReviewFeedback;
  judge?: ReviewJudge;
}

export interface ReviewList {
  items: ReviewItem[];
  counts: { pending: number; labelled: number };
}

/** A label just given: the row shows it at once, without reading the queue again. */
export function withLabel(item: ReviewItem, label: ReviewLabel, note: string | undefined, at: number): ReviewItem {
  const { note: _old, ...rest } = item;
  return { ...rest, label, labelledAt: at, ...(note ? { note } : {}) };
}
