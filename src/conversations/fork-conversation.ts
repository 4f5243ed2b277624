import type { ModelMessage, TranscriptMessage } from "../agents/types.js";
import { estimateTokens } from "../sessions/history/estimate-tokens.js";

/** A conversation longer than this is not copied into a forked child, as OpenClaw's limit. */
export const FORK_MAX_TOKENS = 100_000;

/**
 * What a forked session starts with: the parent's conversation as its next turn would see it
 * (the latest compaction summary, then what followed), without the parent's message still being
 * written (the assistant message whose tool calls are in flight, the spawn among them), so the
 * copy ends with a complete exchange or the user's request. Refused past `maxTokens`.
 */
export function forkedMessages(window: readonly ModelMessage[], maxTokens: number): { messages: TranscriptMessage[] } | { tooLong: number } {
  const messages = [...window] as TranscriptMessage[];
  while (messages.length > 0 && isInFlight(messages.at(-1)!)) messages.pop();
  const tokens = messages.reduce((sum, message) => sum + estimateTokens(message), 0);
  return tokens > maxTokens ? { tooLong: tokens } : { messages };
}

/** An assistant message that called tools: the copy is taken while its calls run. */
function isInFlight(message: TranscriptMessage): boolean {
  return message.role === "assistant" && Array.isArray(message.content) && message.content.some((block) => (block as { type?: string }).type === "toolCall");
}
