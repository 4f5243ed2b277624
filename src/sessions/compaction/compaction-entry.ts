import type { TranscriptEntry, TranscriptEntryInput } from "../store/transcript-lines.js";
import { afterLatestCompaction, toHistoryItems } from "../history/history-items.js";
import { estimateTokens } from "../history/estimate-tokens.js";
import { compactionSummaryMessage } from "../history/compaction-summary.js";
import type { PlannedMessage } from "./plan-compaction.js";

/** Why a compaction ran. */
export type CompactionReason = "threshold" | "overflow" | "manual";

/** What a compaction starts from: the summary in force and every message after it, sized. */
export interface CompactionInput {
  previousSummary?: string;
  messages: PlannedMessage[];
  /** The whole context as it stands: summary plus messages, in tokens. */
  tokensBefore: number;
}

export function compactionInput(entries: readonly TranscriptEntry[]): CompactionInput {
  const { summary, messages } = afterLatestCompaction(toHistoryItems(entries));
  let tokensBefore = summary ? estimateTokens(compactionSummaryMessage(summary)) : 0;
  const planned = messages.map((item) => {
    const tokens = estimateTokens(item.message);
    tokensBefore += tokens;
    return { ...(item.id ? { id: item.id } : {}), message: item.message, tokens };
  });
  return { ...(summary ? { previousSummary: summary.summary } : {}), messages: planned, tokensBefore };
}

/**
 * The transcript line a compaction appends. It is one line, written with one append: a crash
 * leaves either no line (the old history stands) or the whole line (the new one does) — a torn
 * last line is skipped on load.
 */
export function compactionEntry(fields: {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  tokensAfter: number;
  reason: CompactionReason;
  summarizedMessages: number;
  model: string;
}): TranscriptEntryInput {
  return {
    type: "compaction",
    summary: fields.summary,
    firstKeptEntryId: fields.firstKeptEntryId,
    tokensBefore: fields.tokensBefore,
    details: { reason: fields.reason, tokensAfter: fields.tokensAfter, summarizedMessages: fields.summarizedMessages, model: fields.model },
    fromHook: false,
  };
}

/** What a compaction request came to: what it freed, or why nothing was compacted. */
export type CompactionResult = { ok: true; tokensBefore: number; tokensAfter: number; summarizedMessages: number; compactionCount: number } | { ok: false; reason: string };
