import type { TranscriptMessage } from "../../models/messages.js";
import { isConversationMessage } from "../history/conversation-units.js";

/** One transcript message after the latest compaction, with its size estimate. */
export interface PlannedMessage {
  id?: string;
  message: TranscriptMessage;
  tokens: number;
}

export interface PlanOptions {
  /** Newest tokens to keep word for word. */
  keepRecentTokens: number;
  /** Newest turns (a user message and what answers it) always kept, whatever their size. */
  minRecentTurns: number;
  /** Index of the first message that must stay (an unfinished run's prompt): the cut is never after it. */
  keepFrom?: number;
}

export type CompactionPlan =
  | { ok: true; cut: number; firstKeptEntryId: string; summarize: PlannedMessage[]; summarizedTokens: number; keptTokens: number }
  | { ok: false; reason: string };

/**
 * Where to cut a conversation for compaction: everything before `cut` is summarized, the rest is
 * kept. The cut always lands on a user message or an assistant message, never on a tool result,
 * so a tool call is never separated from its results. The kept tail is the newest part holding
 * at least `keepRecentTokens`, extended back to cover `minRecentTurns` whole turns.
 */
export function planCompaction(messages: readonly PlannedMessage[], options: PlanOptions): CompactionPlan {
  const n = messages.length;
  let tail = 0;
  let byTokens = -1;
  let turnsSeen = 0;
  let byTurns = -1;
  for (let i = n - 1; i >= 0; i -= 1) {
    const { message, tokens } = messages[i]!;
    tail += tokens;
    if (!isCutPoint(message, messages[i]!.id)) continue;
    if (message.role === "user" && byTurns < 0 && ++turnsSeen >= options.minRecentTurns) byTurns = i;
    if (byTokens < 0 && tail >= options.keepRecentTokens) byTokens = i;
    if (byTokens >= 0 && byTurns >= 0) break;
  }
  if (byTokens < 0 || byTurns < 0) return { ok: false, reason: "the conversation is shorter than what compaction keeps" };
  let cut = Math.min(byTokens, byTurns);
  if (options.keepFrom !== undefined && options.keepFrom < cut) {
    // Move back to the nearest cut point at or before the message that must stay.
    cut = options.keepFrom;
    while (cut > 0 && !isCutPoint(messages[cut]!.message, messages[cut]!.id)) cut -= 1;
  }
  const summarize = messages.slice(0, cut).filter((m) => isConversationMessage(m.message));
  if (summarize.length === 0) return { ok: false, reason: "nothing older than the kept turns to summarize" };
  let summarizedTokens = 0;
  for (const m of summarize) summarizedTokens += m.tokens;
  let keptTokens = 0;
  for (let i = cut; i < n; i += 1) keptTokens += messages[i]!.tokens;
  return { ok: true, cut, firstKeptEntryId: messages[cut]!.id!, summarize, summarizedTokens, keptTokens };
}

/** A message the kept part may start with: a user or assistant message that has a transcript id. */
function isCutPoint(message: TranscriptMessage, id: string | undefined): boolean {
  return id !== undefined && (message.role === "user" || message.role === "assistant");
}
