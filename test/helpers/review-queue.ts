import { expect } from "vitest";
import { openOperator } from "./ws-client.js";

/** One run in the review queue, as `traces.review.list` answers. */
export interface ReviewQueueItem {
  run: { runId: string; sessionKey?: string };
  reasons: string[];
  feedback?: { rating: "up" | "down"; note?: string };
  label?: string;
}

/** The whole review queue (pending and labelled) of a running gateway, read over a fresh operator socket. */
export async function reviewQueue(gateway: { url: string; token: string | undefined }): Promise<ReviewQueueItem[]> {
  const { sock } = await openOperator(gateway.url, gateway.token);
  try {
    const res = await sock.request("traces.review.list", { status: "all" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    return (res.payload as { items: ReviewQueueItem[] }).items;
  } finally {
    sock.close();
  }
}

/** Labels a run `pass` so it stays in the queue whatever its feedback (then its rating shows there). */
export async function labelPass(gateway: { url: string; token: string | undefined }, runId: string): Promise<void> {
  const { sock } = await openOperator(gateway.url, gateway.token);
  try {
    const res = await sock.request("traces.review.label", { runId, label: "pass" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
  } finally {
    sock.close();
  }
}

/** An operator's rating over `traces.feedback`, as `openclaw traces feedback` gives it. */
export async function rateAsOperator(gateway: { url: string; token: string | undefined }, runId: string, rating: "up" | "down", note: string): Promise<void> {
  const { sock } = await openOperator(gateway.url, gateway.token);
  try {
    const res = await sock.request("traces.feedback", { runId, rating, note });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
  } finally {
    sock.close();
  }
}

/** The review settings under which only feedback queues a run: no random sample, no new-model rule. */
export const FEEDBACK_ONLY_REVIEW = { diagnostics: { traces: { review: { sampleRate: 0, newModelHours: 0 } } } };
