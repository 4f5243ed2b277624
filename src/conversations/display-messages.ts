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
  const rows: Record<string, unknown>[] = [];
  for (const message of messages) {
    const m = message as Record<string, unknown>;
    if (m.role !== "user" && m.role !== "assistant" && m.role !== "toolResult") continue;
    if (m.role === "assistant" && isSilent(m.content)) continue;
    const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    const id = opts.idOf?.(message);
    const row = { ...m, content, ...(id ? { __openclaw: { id } } : {}) };
    const size = JSON.stringify(row).length;
    rows.push(
      size > (opts.maxChars ?? MAX_ROW_CHARS) ? { role: m.role, content: [{ type: "text", text: "[chat.history omitted: message too large]" }], timestamp: m.timestamp } : row,
    );
  }
  return rows.slice(-opts.limit);
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
