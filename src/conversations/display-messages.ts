import type { TranscriptMessage } from "../agents/types.js";

const MAX_ROW_CHARS = 200_000;

/**
 * Transcript messages as chat surfaces show them (`chat.history`): only user / assistant /
 * toolResult, `NO_REPLY` answers omitted, oversized rows replaced by a note, newest `limit`.
 */
export function displayMessages(
  messages: readonly TranscriptMessage[],
  opts: { limit: number; maxChars?: number; idOf?: (message: TranscriptMessage) => string | undefined },
): Record<string, unknown>[] {
  return displayPage(messages, { ...opts, offset: 0 }).messages;
}

/**
 * One page of the displayed conversation, counted from the newest message: `offset` newest
 * messages are skipped, then the `limit` before them are returned oldest first. `hasMore` says
 * older ones exist; `offset + messages.length` asks for the next page back.
 */
export function displayPage(
  messages: readonly TranscriptMessage[],
  opts: { limit: number; offset: number; maxChars?: number; idOf?: (message: TranscriptMessage) => string | undefined },
): { messages: Record<string, unknown>[]; hasMore: boolean } {
  const shown = messages.filter(isShown);
  const end = Math.max(0, shown.length - opts.offset);
  const start = Math.max(0, end - opts.limit);
  const rows = shown.slice(start, end).map((message) => displayRow(message, opts.idOf?.(message), opts.maxChars));
  return { messages: rows, hasMore: start > 0 };
}

/**
 * Whether chat surfaces show the message: user, assistant and toolResult, not a `NO_REPLY`
 * answer, nor input marked `display: false` (a goal resume's continue instruction).
 */
export function isShown(message: TranscriptMessage): boolean {
  const m = message as Record<string, unknown>;
  if (m.role !== "user" && m.role !== "assistant" && m.role !== "toolResult") return false;
  if (m.display === false) return false;
  return !(m.role === "assistant" && isSilent(m.content));
}

/** One shown message as a `chat.history` row: content as blocks, its entry id, a note in place of an oversized one. */
export function displayRow(message: TranscriptMessage, id: string | undefined, maxChars = MAX_ROW_CHARS): Record<string, unknown> {
  const m = message as Record<string, unknown>;
  const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
  const row = { ...m, content, ...(id ? { __openclaw: { id } } : {}) };
  return JSON.stringify(row).length > maxChars ? { role: m.role, content: [{ type: "text", text: "[chat.history omitted: message too large]" }], timestamp: m.timestamp } : row;
}

function isSilent(content: unknown): boolean {
  if (!Array.isArray(content)) return false;
  const text = content
    .filter((b) => b?.type === "text")
    .map((b) => b.text)
    .join("")
    .trim();
  const hasCalls = content.some((b) => b?.type === "toolCall");
  return !hasCalls && text.toUpperCase() === "NO_REPLY";
}
