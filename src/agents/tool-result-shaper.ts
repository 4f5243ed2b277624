import { stripSchemaFields, truncateToolResult } from "./tools/index.js";
import { DEFAULT_IMAGE_MAX_DIMENSION_PX, shrinkContentImages } from "./media/image-shrink.js";
import type { ToolHooks } from "./types.js";

/** Tool results past this many characters are cut (head, plus the tail when it holds an error or JSON). */
export const MAX_TOOL_RESULT_CHARS = 50_000;

/**
 * The after-call hook every run gets: oversized results are cut before they reach the model and the
 * transcript, images over `maxImageSidePx` are scaled down (image-shrink.ts), and
 * `schema`/`$schema` fields are stripped from details (strip-schema-fields.ts says why).
 */
export function createToolResultShaper(maxChars = MAX_TOOL_RESULT_CHARS, maxImageSidePx = DEFAULT_IMAGE_MAX_DIMENSION_PX, onWarning?: (message: string) => void): ToolHooks {
  return {
    afterToolCall: (call, result) => {
      const cut = truncateToolResult(result, maxChars);
      const shaped = cut.details === undefined ? cut : { ...cut, details: stripSchemaFields(cut.details) };
      if (!shaped.content.some((block) => block.type === "image")) return { result: shaped };
      const onFailure = (why: string) => onWarning?.(`${call.name}'s image went to the model at full size: ${why}`);
      return shrinkContentImages(shaped.content, maxImageSidePx, onFailure).then((content) => ({ result: { ...shaped, content } }));
    },
  };
}
