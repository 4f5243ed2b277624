import type { ModelMessage, TranscriptMessage } from "../../models/messages.js";

/**
 * A tokenizer-free estimate: about four characters per token for English text and code, plus a
 * fixed cost per message for role and framing. It errs slightly high on purpose — overshooting
 * drops one old message, undershooting makes the provider reject the whole request.
 */
export const CHARS_PER_TOKEN = 4;
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Providers bill an image by its pixels, not its base64 size; this is a typical downscaled photo. */
export const IMAGE_TOKENS = 1200;

export function estimateTokens(message: TranscriptMessage | ModelMessage): number {
  const m = message as Record<string, unknown>;
  let chars = 0;
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  if (typeof m.toolName === "string") chars += m.toolName.length;
  const content = m.content;
  if (typeof content === "string") {
    chars += content.length;
  } else if (Array.isArray(content)) {
    for (const block of content) {
      const b = (block ?? {}) as Record<string, unknown>;
      switch (b.type) {
        case "text":
          chars += stringLength(b.text);
          break;
        case "thinking":
          chars += stringLength(b.thinking);
          break;
        case "image":
          tokens += IMAGE_TOKENS;
          break;
        case "toolCall":
          chars += stringLength(b.name) + jsonLength(b.arguments);
          break;
        default:
          chars += jsonLength(b);
      }
    }
  } else if (content !== undefined) {
    chars += jsonLength(content);
  }
  return tokens + Math.ceil(chars / CHARS_PER_TOKEN);
}

function stringLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
