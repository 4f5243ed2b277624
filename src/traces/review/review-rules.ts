import type { TraceRecord } from "../types.js";
import type { ReviewSettings } from "./review-settings.js";

/**
 * Why a run is in the review queue: an operator's thumbs-down (`negative-feedback`), its cost
 * (`high-cost`), a model new to its agent (`new-model`), a prompt version new to its agent
 * (`new-prompt`), the random sample (`sampled`), or an operator labelling a run nobody queued (`manual`).
 */
export type ReviewReason = "negative-feedback" | "high-cost" | "new-model" | "new-prompt" | "sampled" | "manual";

/** What the rules know about a run beyond its trace. */
export interface RunContext {
  /** When the run's agent first ran on the run's model (ms since the epoch), as the store recorded it. */
  modelFirstSeenAt?: number;
  /** When the run's agent first ran on the run's prompt version; 0 for the agent's first version, which is its baseline, not a change. */
  promptFirstSeenAt?: number;
  /** A number in [0, 1), drawn for this run. */
  draw: number;
}

/** Every run's total tokens: input, output, cache read and cache write, over all its model calls. */
export function runTokens(record: Pick<TraceRecord, "usage">): number {
  const u = record.usage;
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/**
 * The rules that route a run to review (docs/traces.md#review-queue). Routed, not random: costly
 * runs, and runs on a model or a prompt the agent just started using, are always queued; the sample takes a
 * share of the rest, optionally only in a daily window. Runtime messages (`internal`) are not
 * the agent's answers to anyone and are never queued.
 */
export function reviewReasons(record: TraceRecord, settings: ReviewSettings, context: RunContext): ReviewReason[] {
  if (!settings.enabled || record.source === "internal") return [];
  const reasons: ReviewReason[] = [];
  if (settings.highCostTokens > 0 && runTokens(record) >= settings.highCostTokens) reasons.push("high-cost");
  if (settings.newModelMs > 0 && context.modelFirstSeenAt !== undefined && record.startedAt - context.modelFirstSeenAt < settings.newModelMs) reasons.push("new-model");
  if (settings.newPromptMs > 0 && context.promptFirstSeenAt !== undefined && record.startedAt - context.promptFirstSeenAt < settings.newPromptMs) reasons.push("new-prompt");
  if (reasons.length === 0 && context.draw < settings.sampleRate && withinWindow(settings.sampleWindow, record.startedAt)) reasons.push("sampled");
  return reasons;
}

/** Host-local time of day, from the Date getters (no Intl: see docs/architecture.md); a window may cross midnight. */
function withinWindow(window: ReviewSettings["sampleWindow"], at: number): boolean {
  if (!window) return true;
  const date = new Date(at);
  const minutes = date.getHours() * 60 + date.getMinutes();
  return window.start < window.end ? minutes >= window.start && minutes < window.end : minutes >= window.start || minutes < window.end;
}
