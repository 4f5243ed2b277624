import type Anthropic from "@anthropic-ai/sdk";
import type { ImageBlock, ModelMessage, TextBlock } from "./messages.js";
import type { ModelRequest } from "./types.js";
import { normalizeToolSchema } from "./tool-schema.js";
import { type CacheRetention, wireSettings } from "./model-settings.js";

type WireMessage = Anthropic.MessageParam & { role: "user" | "assistant" };
type WireBlock = Anthropic.ContentBlockParam;
type ImageMediaType = Anthropic.Base64ImageSource["media_type"];

const CACHE_BREAKPOINT: Anthropic.CacheControlEphemeral = { type: "ephemeral" };
const LONG_CACHE_BREAKPOINT: Anthropic.CacheControlEphemeral = { type: "ephemeral", ttl: "1h" };

/** The breakpoint `params.cacheRetention` asks for: none, the default 5-minute cache (`short`), or the 1-hour one (`long`). */
function cacheBreakpoint(retention: CacheRetention | undefined): Anthropic.CacheControlEphemeral | undefined {
  if (retention === "none") return undefined;
  return retention === "long" ? LONG_CACHE_BREAKPOINT : CACHE_BREAKPOINT;
}
const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/**
 * Our request → the Messages API body. The 2026-10-21 API version this SDK speaks has no
 * `temperature` or `top_p`, so those are not sent (wireSettings names them as dropped); the
 * thinking level becomes a `thinking` budget on reasoning models.
 */
export function toAnthropicParams(request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  const { model } = request;
  const settings = request.thinking || request.params ? wireSettings(request) : undefined;
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: model.id,
    max_tokens: settings?.maxTokens ?? request.maxTokens ?? model.maxTokens,
    messages: toAnthropicMessages(request.messages, model.input.includes("image"), cacheBreakpoint(settings?.cacheRetention)),
    stream: true,
  };
  // The system prompt is the stable prefix of every turn; a cache breakpoint on it lets the
  // provider reuse tools + system across turns instead of billing them again.
  const breakpoint = cacheBreakpoint(settings?.cacheRetention);
  if (request.systemPrompt) params.system = [{ type: "text", text: request.systemPrompt, ...(breakpoint ? { cache_control: breakpoint } : {}) }];
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: normalizeToolSchema(tool.parameters, "anthropic-messages", model.provider) as Anthropic.Tool.InputSchema,
    }));
  }
  // The thinking budget and the params this API takes (stop_sequences, top_k), already in its names.
  if (settings) Object.assign(params, settings.fields);
  return params;
}

/**
 * Transcript → wire messages. Tool results travel as `tool_result` blocks in a user message,
 * and consecutive same-role messages are merged: parallel tool calls must be answered in ONE
 * user message, and the API wants user/assistant turns to alternate.
 */
export function toAnthropicMessages(messages: readonly ModelMessage[], imagesAllowed: boolean, breakpoint: Anthropic.CacheControlEphemeral | undefined): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) {
    const converted = convertMessage(message, imagesAllowed);
    if (!converted || converted.blocks.length === 0) continue;
    const last = wire[wire.length - 1];
    if (last && last.role === converted.role) (last.content as WireBlock[]).push(...converted.blocks);
    else wire.push({ role: converted.role, content: converted.blocks });
  }
  if (breakpoint) markConversationCache(wire, breakpoint);
  return wire;
}

function convertMessage(message: ModelMessage, imagesAllowed: boolean): { role: "user" | "assistant"; blocks: WireBlock[] } | undefined {
  switch (message.role) {
    case "user": {
      const blocks = typeof message.content === "string" ? textBlocks(message.content) : message.content.flatMap((b) => userBlock(b, imagesAllowed));
      return { role: "user", blocks };
    }
    case "assistant": {
      const blocks: WireBlock[] = [];
      for (const block of message.content) {
        if (block.type === "text" && block.text) blocks.push({ type: "text", text: block.text });
        // Only signed thinking can be replayed; an unsigned one (another provider's) is rejected.
        else if (block.type === "thinking" && block.signature) blocks.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
        else if (block.type === "toolCall") blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments });
      }
      return { role: "assistant", blocks };
    }
    case "toolResult": {
      const content = message.content.flatMap((b) => userBlock(b, imagesAllowed)) as Anthropic.ToolResultBlockParam["content"];
      const result: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: message.toolCallId, content };
      if (message.isError) result.is_error = true;
      return { role: "user", blocks: [result] };
    }
    default:
      return undefined;
  }
}

function textBlocks(text: string): WireBlock[] {
  // The API rejects empty text blocks.
  return text ? [{ type: "text", text }] : [];
}

function userBlock(block: TextBlock | ImageBlock, imagesAllowed: boolean): (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] {
  if (block.type === "text") return block.text ? [{ type: "text", text: block.text }] : [];
  if (!imagesAllowed || !IMAGE_TYPES.includes(block.mimeType)) {
    return [{ type: "text", text: `[image omitted: ${block.mimeType} is not supported by this model]` }];
  }
  return [{ type: "image", source: { type: "base64", media_type: block.mimeType as ImageMediaType, data: block.data } }];
}

// A second breakpoint on the newest user block caches the conversation prefix, so the next
// turn reads history from cache instead of paying for it again.
function markConversationCache(wire: WireMessage[], breakpoint: Anthropic.CacheControlEphemeral): void {
  const lastUser = [...wire].reverse().find((m) => m.role === "user");
  const blocks = lastUser?.content as WireBlock[] | undefined;
  const last = blocks?.[blocks.length - 1];
  if (last && (last.type === "text" || last.type === "tool_result" || last.type === "image")) last.cache_control = breakpoint;
}
