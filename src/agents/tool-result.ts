import type { ToolResult } from "./types.js";

/** A successful text result. */
export function toolText(text: string, details?: unknown): ToolResult {
  return { content: [{ type: "text", text }], ...(details === undefined ? {} : { details }) };
}

/**
 * A failure the model can act on: a stable code, what went wrong, and what to do instead.
 * Rendered as JSON so the model reads the fields reliably.
 */
export function toolError(code: string, message: string, suggestion?: string, details?: unknown): ToolResult {
  const body = { error: code, message, ...(suggestion ? { suggestion } : {}) };
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true, ...(details === undefined ? {} : { details }) };
}
