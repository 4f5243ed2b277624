import type OpenAI from "openai";
import type { AssistantMessage, ImageBlock, ModelMessage, ModelRequest, TextBlock, ToolResultMessage, ToolSpec, UserMessage } from "../agents/types.js";
import { normalizeToolSchema } from "./tool-schema.js";

export type WireMessage = OpenAI.ChatCompletionMessageParam;
export type UserPart = OpenAI.ChatCompletionContentPartText | OpenAI.ChatCompletionContentPartImage;

/**
 * Our request → a Chat Completions body. The real OpenAI endpoint wants
 * `max_completion_tokens` (its reasoning models reject `max_tokens`); OpenAI-compatible
 * servers (vLLM, Ollama, LM Studio, gateways) mostly only know `max_tokens`.
 */
export function toOpenAIParams(request: ModelRequest): OpenAI.ChatCompletionCreateParamsStreaming {
  const { model } = request;
  const maxTokens = request.maxTokens ?? model.maxTokens;
  const params: OpenAI.ChatCompletionCreateParamsStreaming = {
    model: model.id,
    messages: toOpenAIMessages(request.systemPrompt, request.messages, model.input.includes("image")),
    stream: true,
    // Without this the stream carries no token counts at all.
    stream_options: { include_usage: true },
    ...(model.provider === "openai" ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
  };
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => toolDefinition(tool, model.provider));
  }
  return params;
}

/** A tool as Chat Completions declares it, its schema normalized for this provider. */
export function toolDefinition(tool: ToolSpec, provider: string): OpenAI.ChatCompletionTool {
  return {
    type: "function" as const,
    function: {
      name: tool.name,
      description: tool.description,
      parameters: normalizeToolSchema(tool.parameters, "openai-completions", provider),
    },
  };
}

/**
 * Transcript → wire messages: the system prompt first, thinking dropped (Chat Completions
 * has no way to send it back), tool results as `role: "tool"`. Tool messages may carry only
 * text, so images a tool returned follow in one user message after the run of tool messages
 * (nothing may sit between an assistant's tool_calls and their answers).
 */
export function toOpenAIMessages(systemPrompt: string, messages: readonly ModelMessage[], imagesAllowed: boolean): WireMessage[] {
  const wire: WireMessage[] = systemPrompt ? [{ role: "system", content: systemPrompt }] : [];
  let toolImages: UserPart[] = [];
  for (const message of messages) {
    if (message.role !== "toolResult" && toolImages.length > 0) {
      wire.push(toolImagesMessage(toolImages));
      toolImages = [];
    }
    const converted = toWire(message, imagesAllowed);
    if (converted.message) wire.push(converted.message);
    toolImages.push(...converted.toolImages);
  }
  if (toolImages.length > 0) wire.push(toolImagesMessage(toolImages));
  return wire;
}

/**
 * One model message on the wire, on its own: the message itself (none when it would be empty)
 * and, for a tool result, the images that must follow the run of tool messages it belongs to.
 */
export function toWire(message: ModelMessage, imagesAllowed: boolean): { message?: WireMessage; toolImages: UserPart[] } {
  if (message.role === "user") return { message: userMessage(message, imagesAllowed), toolImages: [] };
  if (message.role === "assistant") return { message: assistantMessage(message), toolImages: [] };
  const { tool, images } = toolMessage(message, imagesAllowed);
  return { message: tool, toolImages: images };
}

/** The user message that carries images tools returned (tool messages may carry only text). */
export function toolImagesMessage(images: UserPart[]): WireMessage {
  return { role: "user", content: [{ type: "text", text: TOOL_IMAGES_INTRO }, ...images] };
}

const TOOL_IMAGES_INTRO = "Images returned by the tools above:";

function userMessage(message: UserMessage, imagesAllowed: boolean): WireMessage | undefined {
  if (typeof message.content === "string") return message.content ? { role: "user", content: message.content } : undefined;
  const parts = message.content.map((block) => userPart(block, imagesAllowed)).filter((p): p is UserPart => p !== undefined);
  if (parts.length === 0) return undefined;
  // Plain text goes as a string: many OpenAI-compatible servers accept nothing else.
  if (parts.every((p) => p.type === "text")) return { role: "user", content: parts.map((p) => (p as OpenAI.ChatCompletionContentPartText).text).join("\n") };
  return { role: "user", content: parts };
}

function assistantMessage(message: AssistantMessage): WireMessage | undefined {
  const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  const toolCalls = message.content.flatMap((b) =>
    b.type === "toolCall" ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.arguments) } }] : [],
  );
  if (!text && toolCalls.length === 0) return undefined;
  return { role: "assistant", content: text || null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

function toolMessage(message: ToolResultMessage, imagesAllowed: boolean): { tool: WireMessage; images: UserPart[] } {
  const texts: string[] = [];
  const images: UserPart[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (imagesAllowed) images.push(imagePart(block));
    else texts.push(`[image omitted: ${block.mimeType}]`);
  }
  if (images.length > 0) texts.push(`[${images.length} image(s) attached in the next message]`);
  // Some servers reject an empty tool message.
  const content = texts.join("\n") || "(no output)";
  return { tool: { role: "tool", tool_call_id: message.toolCallId, content }, images };
}

function userPart(block: TextBlock | ImageBlock, imagesAllowed: boolean): UserPart | undefined {
  if (block.type === "text") return block.text ? { type: "text", text: block.text } : undefined;
  return imagesAllowed ? imagePart(block) : { type: "text", text: `[image omitted: ${block.mimeType}]` };
}

function imagePart(block: ImageBlock): OpenAI.ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
}
