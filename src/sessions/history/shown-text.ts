import type { TranscriptMessage } from "../../models/messages.js";

/**
 * What the session views (`sessions_history`, `sessions_list`'s last messages) show of a
 * transcript message, and what `sessions_search` indexes: its text blocks (a string content is
 * one) and, with `includeTools`, its tool calls as `[tool call <name> <arguments>]`. Thinking and
 * images never; tool results only with `includeTools`; other roles never. A message whose parts
 * are all blank is not shown at all, so the views and the search index count the same messages.
 */
export function shownTextParts(message: TranscriptMessage, includeTools: boolean): string[] {
  if (message.role === "toolResult" && !includeTools) return [];
  if (message.role !== "user" && message.role !== "assistant" && message.role !== "toolResult") return [];
  const content = message.content;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const parts: string[] = [];
  for (const block of content as { type?: string; text?: string; name?: string; arguments?: unknown }[]) {
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "toolCall" && includeTools) parts.push(`[tool call ${block.name} ${JSON.stringify(block.arguments ?? {})}]`);
  }
  return parts;
}

/** A message's shown text as one string (parts joined by newlines), or "" when it is not shown. */
export function shownText(message: TranscriptMessage, includeTools: boolean): string {
  return shownTextParts(message, includeTools).join("\n").trim();
}
