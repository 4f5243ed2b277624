import type { TranscriptMessage } from "../../models/messages.js";

/** Framing of a compaction summary, so the model reads it as context rather than a user request. */
export const COMPACTION_SUMMARY_PREFIX = "Earlier parts of this conversation were condensed to save space. Summary of what happened before the messages that follow:";

/**
 * How a compaction summary reaches the model: a user message framed as earlier context, always
 * first in a turn's history (ConversationWindow's head).
 */
export function compactionSummaryMessage(summary: { summary: string; timestamp: number }): TranscriptMessage {
  return {
    role: "user",
    content: [{ type: "text", text: `${COMPACTION_SUMMARY_PREFIX}\n\n<summary>\n${summary.summary}\n</summary>` }],
    timestamp: summary.timestamp,
    compactionSummary: true,
  };
}
