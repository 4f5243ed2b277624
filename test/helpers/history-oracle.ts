import type { TranscriptMessage } from "../../src/agents/types.js";
import {
  afterLatestCompaction,
  compactionSummaryMessage,
  estimateTokens,
  groupConversationUnits,
  isConversationMessage,
  toHistoryItems,
  type HistorySource,
} from "../../src/sessions/history/index.js";

/**
 * A turn's history worked out the straightforward way, from the whole transcript every time:
 * the reference the gateway's incremental ConversationWindow must equal.
 */

export interface LoadHistoryOptions {
  /** Tokens the history may use (context window minus system prompt, tools and reply). */
  tokenBudget: number;
}

export interface HistoryWindow {
  /** Oldest first, ready to precede the current message. */
  messages: TranscriptMessage[];
  estimatedTokens: number;
  /** Conversation messages left out because they did not fit. */
  omittedMessages: number;
}

/** The newest conversation messages that fit `tokenBudget`, oldest first (see selectHistory). */
export function loadHistory(sources: readonly HistorySource[], options: LoadHistoryOptions): TranscriptMessage[] {
  return selectHistory(sources, options).messages;
}

/**
 * The newest part of a conversation that fits `tokenBudget`, with its estimated size. Walks
 * back from the newest message, whole units at a time (a tool-calling turn with its results),
 * and stops at the first unit that does not fit — skipping it to squeeze in older messages
 * would leave a hole the model cannot see. A compaction summary, when present, is always
 * included first.
 */
export function selectHistory(sources: readonly HistorySource[], options: LoadHistoryOptions): HistoryWindow {
  // NaN would make every comparison false and let everything through; treat it as no room.
  const budget = Number.isNaN(options.tokenBudget) ? 0 : options.tokenBudget;
  const { summary, messages } = afterLatestCompaction(toHistoryItems(sources));
  const conversation = messages.map((item) => item.message).filter((m) => isConversationMessage(m) && !isEmptyAssistant(m));
  const units = groupConversationUnits(conversation, (m) => m);

  const head: TranscriptMessage[] = [];
  let used = 0;
  if (summary) {
    const summaryMessage = compactionSummaryMessage(summary);
    head.push(summaryMessage);
    used += estimateTokens(summaryMessage);
  }

  const picked: TranscriptMessage[][] = [];
  let kept = 0;
  for (let i = units.length - 1; i >= 0; i -= 1) {
    const unit = units[i]!;
    const cost = unit.reduce((sum, m) => sum + estimateTokens(m), 0);
    if (used + cost > budget) break;
    used += cost;
    kept += unit.length;
    picked.push(unit);
  }
  const total = units.reduce((sum, unit) => sum + unit.length, 0);
  return { messages: [...head, ...picked.reverse().flat()], estimatedTokens: used, omittedMessages: total - kept };
}

/** A failed or aborted turn may leave an assistant message with nothing in it; it adds nothing. */
function isEmptyAssistant(message: TranscriptMessage): boolean {
  const content = (message as { content?: unknown }).content;
  return message.role === "assistant" && (content === undefined || (Array.isArray(content) && content.length === 0));
}
