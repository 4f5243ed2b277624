import type { Usage } from "../models/messages.js";
import type { SessionEntry, SessionPatch } from "../sessions/store/index.js";

/**
 * A turn's usage added to the session row's counters: prompt tokens (uncached input plus cache
 * reads and writes), output tokens, the cache split, and the estimated cost when the model has a
 * configured price. `totalTokens` stays input + output, summed.
 */
export function sessionUsagePatch(entry: Readonly<SessionEntry> | undefined, usage: Usage, costUsd: number | undefined): SessionPatch {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  const inputTokens = (entry?.inputTokens ?? 0) + prompt;
  const outputTokens = (entry?.outputTokens ?? 0) + usage.output;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cacheRead: (entry?.cacheRead ?? 0) + usage.cacheRead,
    cacheWrite: (entry?.cacheWrite ?? 0) + usage.cacheWrite,
    ...(costUsd !== undefined ? { estimatedCostUsd: (entry?.estimatedCostUsd ?? 0) + costUsd } : {}),
  };
}
