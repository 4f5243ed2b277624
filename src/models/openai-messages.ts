import type OpenAI from "openai";
import type { AssistantMessage, ImageBlock, ModelMessage, TextBlock, ToolResultMessage, UserMessage } from "./messages.js";
import type { ToolSpec } from "./types.js";
import { normalizeToolSchema } from "./tool-schema.js";

export type WireMessage = OpenAI.ChatCompletionMessageParam;
export type UserPart = OpenAI.ChatCompletionContentPartText | OpenAI.ChatCompletionContentPartImage;

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
 * One model message on the wire, on its own (openAIRequestBody assembles the body): the message
 * itself (none when it would be empty) and, for a tool result, the images that must follow the
 * run of tool messages it belongs to. Thinking is dropped (Chat Completions has no way to send it
 * back); tool results go as `role: "tool"`, which may carry only text, so a tool's images follow
 * in one user message after the run (nothing may sit between tool_calls and their answers).
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
