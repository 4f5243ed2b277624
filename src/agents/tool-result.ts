import type { CodedToolError } from "./tool-errors.js";
import type { ToolResult } from "./types.js";

/** A successful text result. */
export function toolText(text: string, details?: unknown): ToolResult {
  return { content: [{ type: "text", text }], ...(details === undefined ? {} : { details }) };
}

/**
 * A failure the model can act on (an entry of `TOOL_ERRORS`): a stable code, what went wrong, and
 * what to do instead. Rendered as JSON so the model reads the fields reliably.
 */
export function toolError(error: CodedToolError, details?: unknown): ToolResult {
  const body = { error: error.code, message: error.message, ...(error.suggestion ? { suggestion: error.suggestion } : {}) };
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true, ...(details === undefined ? {} : { details }) };
}
