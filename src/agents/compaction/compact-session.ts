import { compactionEntry, planCompaction, type CompactionInput, type CompactionReason } from "../../sessions/compaction/index.js";
import { COMPACTION_DEFAULTS } from "../../sessions/compaction/compaction-settings.js";
import { compactionSummaryMessage } from "../../sessions/history/compaction-summary.js";
import { estimateTokens } from "../../sessions/history/estimate-tokens.js";
import type { TranscriptEntryInput } from "../../sessions/store/transcript-lines.js";
import type { ResolvedModel, StreamModelFn } from "../types.js";
import { summarizeConversation } from "./summarize.js";

export interface CompactSessionInput {
  /** The summary in force and the messages since (`compactionInput` over the transcript, or a cached window's). */
  source: CompactionInput;
  reason: CompactionReason;
  instructions?: string;
  keepRecentTokens: number;
  summaryMaxTokens: number;
  /** Idempotency keys of runs not yet finished: their messages are always kept. */
  unfinishedRunIds: ReadonlySet<string>;
  streamModel: StreamModelFn;
  /** The model that writes the summary. */
  model: ResolvedModel;
  signal: AbortSignal;
}

export type CompactSessionOutcome =
  | { ok: true; entry: TranscriptEntryInput; tokensBefore: number; tokensAfter: number; summarizedMessages: number }
  | { ok: false; reason: string; tokensBefore: number };

/**
 * One compaction, decided and written up but not stored: plans the cut, asks for the summary,
 * and returns the `compaction` entry for the caller to append. Nothing is changed when it
 * fails (summarizer error, timeout, identifiers lost, nothing to summarize): the caller keeps
 * the history as it is.
 */
export async function compactSession(input: CompactSessionInput): Promise<CompactSessionOutcome> {
  const start = input.source;
  const keepFrom = start.messages.findIndex((m) => input.unfinishedRunIds.has(m.message.idempotencyKey as string));
  const plan = planCompaction(start.messages, {
    keepRecentTokens: input.keepRecentTokens,
    // An overflow must free room even when the last turns are big: only the newest turn is sacred then.
    minRecentTurns: input.reason === "overflow" ? 1 : COMPACTION_DEFAULTS.recentTurnsPreserve,
    ...(keepFrom >= 0 ? { keepFrom } : {}),
  });
  if (!plan.ok) return { ok: false, reason: plan.reason, tokensBefore: start.tokensBefore };
  if (input.signal.aborted) return { ok: false, reason: "stopped before the summary was written", tokensBefore: start.tokensBefore };

  const summarized = await summarizeConversation({
    streamModel: input.streamModel,
    model: input.model,
    messages: plan.summarize.map((m) => m.message),
    ...(start.previousSummary ? { previousSummary: start.previousSummary } : {}),
    ...(input.instructions ? { instructions: input.instructions } : {}),
    maxTokens: input.summaryMaxTokens,
    signal: input.signal,
  });
  if (!summarized.ok) return { ok: false, reason: summarized.reason, tokensBefore: start.tokensBefore };
  const tokensAfter = estimateTokens(compactionSummaryMessage({ summary: summarized.summary, timestamp: 0 })) + plan.keptTokens;
  return {
    ok: true,
    entry: compactionEntry({
      summary: summarized.summary,
      firstKeptEntryId: plan.firstKeptEntryId,
      tokensBefore: start.tokensBefore,
      tokensAfter,
      reason: input.reason,
      summarizedMessages: plan.summarize.length,
      model: input.model.ref,
    }),
    tokensBefore: start.tokensBefore,
    tokensAfter,
    summarizedMessages: plan.summarize.length,
  };
}
