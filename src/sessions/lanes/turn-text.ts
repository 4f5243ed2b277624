/**
 * How queued messages become the prompt text of one turn. Kept apart from the queue logic so the
 * exact wording is easy to find and to test.
 */
import type { InboundMessage } from "./inbound-types.js";

/** Summary lines keep about this many characters of the original message. */
export const SUMMARY_CHARS = 80;

/** One line, at most `SUMMARY_CHARS` characters plus an ellipsis when cut. */
export function summaryLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= SUMMARY_CHARS ? flat : `${flat.slice(0, SUMMARY_CHARS).trimEnd()}…`;
}

/**
 * The line prepended to the next turn under `drop: "summarize"`. `omitted` counts summaries
 * that were themselves dropped so the block stays bounded during a flood.
 */
export function summaryBlock(lines: readonly string[], omitted = 0): string {
  const quoted = lines.map((line) => `"${line}"`).join("; ");
  const more = omitted > 0 ? ` (+${omitted} more)` : "";
  return `[Earlier queued messages were summarized: ${quoted}${more}]`;
}

/** `collect`: one turn whose text is each message in arrival order, separated by a blank line. */
export function collectedText(messages: readonly InboundMessage[]): string {
  return messages.map((m) => m.text).join("\n\n");
}

/**
 * `interrupt`: the newest message is what the user wants now, but the ones that were waiting
 * must not vanish, so they come first under a label and the newest comes last under its own.
 */
export function interruptText(messages: readonly InboundMessage[]): string {
  if (messages.length <= 1) return messages[0]?.text ?? "";
  const earlier = collectedText(messages.slice(0, -1));
  const latest = messages[messages.length - 1]!.text;
  return `[Earlier messages, sent before the interrupt]\n${earlier}\n\n[Latest message]\n${latest}`;
}

export function withSummary(summary: string | undefined, body: string): string {
  if (!summary) return body;
  return body ? `${summary}\n\n${body}` : summary;
}
