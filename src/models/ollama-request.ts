import type { AssistantMessage, ModelMessage, ToolResultMessage, UserMessage } from "./messages.js";
import { isSelfHosted } from "./local-base-url.js";
import { wireSettings } from "./model-settings.js";
import { normalizeToolSchema } from "./tool-schema.js";
import type { ModelRequest } from "./types.js";

/** A message as `/api/chat` takes it: text, base64 images, thinking and tool calls beside each other. */
export interface OllamaMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  images?: string[];
  thinking?: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
}

/**
 * The `/api/chat` body of a streamed request. A server on this machine or the LAN gets
 * `truncate: false` and `shift: false` unless the model's params say otherwise, so an input over
 * its context window is refused (and the session compacted) instead of silently cut.
 */
export function ollamaRequestBody(request: ModelRequest): Record<string, unknown> {
  const { model } = request;
  const settings = wireSettings(request);
  const imagesAllowed = model.input.includes("image");
  const messages: OllamaMessage[] = [];
  if (request.systemPrompt) messages.push({ role: "system", content: request.systemPrompt });
  for (const message of request.messages) {
    const wire = toOllama(message, imagesAllowed);
    if (wire) messages.push(wire);
  }
  const local = isSelfHosted(model.baseUrl);
  return {
    model: model.id,
    messages,
    stream: true,
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: "function",
            function: { name: tool.name, description: tool.description, parameters: normalizeToolSchema(tool.parameters, model.api, model.provider) },
          })),
        }
      : {}),
    ...(local ? { truncate: false, shift: false } : {}),
    ...settings.fields,
  };
}

function toOllama(message: ModelMessage, imagesAllowed: boolean): OllamaMessage | undefined {
  if (message.role === "user") return userMessage(message, imagesAllowed);
  if (message.role === "assistant") return assistantMessage(message);
  return toolMessage(message, imagesAllowed);
}

function userMessage(message: UserMessage, imagesAllowed: boolean): OllamaMessage | undefined {
  if (typeof message.content === "string") return message.content ? { role: "user", content: message.content } : undefined;
  const texts: string[] = [];
  const images: string[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) texts.push(block.text);
    } else if (imagesAllowed) images.push(block.data);
    else texts.push(`[image omitted: ${block.mimeType}]`);
  }
  if (texts.length === 0 && images.length === 0) return undefined;
  return { role: "user", content: texts.join("\n"), ...(images.length > 0 ? { images } : {}) };
}

function assistantMessage(message: AssistantMessage): OllamaMessage | undefined {
  let text = "";
  let thinking = "";
  const calls: NonNullable<OllamaMessage["tool_calls"]> = [];
  for (const block of message.content) {
    if (block.type === "text") text += block.text;
    else if (block.type === "thinking") thinking += block.thinking;
    else calls.push({ function: { name: block.name, arguments: block.arguments } });
  }
  if (!text && calls.length === 0) return undefined;
  return { role: "assistant", content: text, ...(thinking ? { thinking } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

function toolMessage(message: ToolResultMessage, imagesAllowed: boolean): OllamaMessage {
  const texts: string[] = [];
  const images: string[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (imagesAllowed) images.push(block.data);
    else texts.push(`[image omitted: ${block.mimeType}]`);
  }
  return { role: "tool", tool_name: message.toolName, content: texts.join("\n") || "(no output)", ...(images.length > 0 ? { images } : {}) };
}
