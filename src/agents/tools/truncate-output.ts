import type { ToolResult } from "../types.js";
import { safeCut, truncationMarker } from "./text-cut.js";

/**
 * When the end of a long output looks like an error report or a closing JSON bracket, the end is
 * what the model needs (the stack trace, the failing test, the end of a document), so it is kept
 * alongside the head. Only the last part is inspected, so a word in the middle does not count.
 */
const IMPORTANT_TAIL = /error|exception|traceback|failed|\}\s*$|\]\s*$/i;
const TAIL_INSPECT_CHARS = 2_000;
/** Share of the budget given to the tail when it is kept. */
const TAIL_SHARE = 0.3;

/**
 * Shortens `text` to about `maxChars` (the marker comes on top). Keeps the head; keeps the tail
 * too when it holds an error or the end of a JSON value. Used by tools and by the loop's
 * afterToolCall hook.
 */
export function truncateToolText(text: string, maxChars: number): string {
  const budget = Math.max(0, Math.floor(maxChars));
  if (text.length <= budget) return text;

  const lastPart = text.slice(-Math.min(TAIL_INSPECT_CHARS, text.length));
  if (budget > 0 && IMPORTANT_TAIL.test(lastPart)) {
    const tailChars = Math.max(1, Math.floor(budget * TAIL_SHARE));
    const headEnd = safeCut(text, budget - tailChars);
    const tailStart = safeCut(text, text.length - tailChars);
    return text.slice(0, headEnd) + truncationMarker(tailStart - headEnd) + text.slice(tailStart);
  }
  const headEnd = safeCut(text, budget);
  return text.slice(0, headEnd) + truncationMarker(text.length - headEnd);
}

/** Applies `truncateToolText` to every text block of a result; images are left alone. */
export function truncateToolResult(result: ToolResult, maxChars: number): ToolResult {
  let changed = false;
  const content = result.content.map((block) => {
    if (block.type !== "text" || block.text.length <= maxChars) return block;
    changed = true;
    return { ...block, text: truncateToolText(block.text, maxChars) };
  });
  return changed ? { ...result, content } : result;
}
