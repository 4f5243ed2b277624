import { stripSchemaFields, truncateToolResult } from "./tools/index.js";
import type { ToolHooks } from "./types.js";

/** Tool results past this many characters are cut (head, plus the tail when it holds an error or JSON). */
export const MAX_TOOL_RESULT_CHARS = 50_000;

/**
 * The after-call hook every run gets: oversized results are cut before they reach the model and the
 * transcript, and `schema`/`$schema` fields are stripped from details (strip-schema-fields.ts says
 * why).
 */
export function createToolResultShaper(maxChars = MAX_TOOL_RESULT_CHARS): ToolHooks {
  return {
    afterToolCall: (_call, result) => {
      const cut = truncateToolResult(result, maxChars);
      return { result: cut.details === undefined ? cut : { ...cut, details: stripSchemaFields(cut.details) } };
    },
  };
}
