import type { ChatCompletionBody, ChatMessage } from "./chat-request-schema.js";
import { chatImagePart, type ImageSource, MAX_IMAGE_PARTS } from "./image-sources.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { checkToolChoice } from "./request-fields.js";

export interface ParsedChatRequest {
  /** The `model` string as sent; echoed back in responses. */
  model?: string;
  stream: boolean;
  includeUsage: boolean;
  user?: string;
  /** Text of the last (user) message. */
  message: string;
  /** The last message's images, in order (not yet fetched or decoded). */
  images: ImageSource[];
  extraSystemPrompt?: string;
  /** Every conversation message before the last one, as plain text. */
  history: { role: "user" | "assistant"; text: string }[];
  /** The request's sampling fields and token cap, as model params for its turn (absent when it sets none). */
  modelParams?: Record<string, unknown>;
}

type Role = ChatMessage["role"];
const TEXT_PARTS = new Set(["text", "input_text"]);
const MEDIA_PARTS = new Set(["input_image", "input_audio", "file", "input_file"]);

/**
 * The rules of a `POST /v1/chat/completions` body that its shape cannot state; the shape itself
 * (types, ranges, roles) is the route's schema, checked before this runs (chat-request-schema.ts).
 */
export function parseChatRequest(body: ChatCompletionBody): ParsedChatRequest {
  checkToolChoice(body.tool_choice);
  const stream = body.stream ?? false;
  const parsed = body.messages.map((m, i) => parseMessage(m, `messages[${i}]`, i === body.messages.length - 1));
  const last = parsed[parsed.length - 1]!;
  if (last.role !== "user") throw new OpenAiRequestError("The last message in `messages` must have role 'user'.", "messages");
  if (last.text.trim() === "" && last.images.length === 0) throw new OpenAiRequestError("Missing user message in `messages`.", "messages");

  const system = parsed
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.text)
    .filter((t) => t.trim() !== "");
  const history = parsed.slice(0, -1).flatMap(historyEntry);
  const modelParams = samplingParams(body);
  return {
    ...(body.model ? { model: body.model } : {}),
    ...(body.user ? { user: body.user } : {}),
    stream,
    includeUsage: stream && (body.stream_options?.include_usage ?? false),
    message: last.text,
    images: last.images,
    ...(system.length > 0 ? { extraSystemPrompt: system.join("\n\n") } : {}),
    history,
    ...(modelParams ? { modelParams } : {}),
  };
}

/**
 * `temperature`, `top_p`, the penalties, `seed`, `stop` and the token cap (`max_completion_tokens`
 * over `max_tokens`), under the names model params use. Their ranges are the schema's.
 */
function samplingParams(body: ChatCompletionBody): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {};
  for (const field of ["temperature", "top_p", "frequency_penalty", "presence_penalty", "seed", "stop"] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) params[field] = value;
  }
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null) params.max_tokens = maxTokens;
  return Object.keys(params).length > 0 ? params : undefined;
}

interface ParsedMessage {
  role: Role;
  text: string;
  images: ImageSource[];
  /** `name` (function role) or `tool_call_id` (tool role), for labelling tool output. */
  source?: string;
}

function parseMessage(raw: ChatMessage, param: string, isLast: boolean): ParsedMessage {
  const { text, images } = content(raw.content, raw.role, `${param}.content`, isLast);
  const source = typeof raw.name === "string" ? raw.name : typeof raw.tool_call_id === "string" ? raw.tool_call_id : undefined;
  return { role: raw.role, text, images, ...(source ? { source } : {}) };
}

/**
 * String content, or the joined text of its parts and, in the latest message, its images (at most
 * MAX_IMAGE_PARTS). As upstream, images are read only from the latest user message: media in older
 * messages is dropped. Audio and file parts there are refused.
 */
function content(value: ChatMessage["content"], role: Role, param: string, isLast: boolean): { text: string; images: ImageSource[] } {
  if (typeof value === "string") return { text: value, images: [] };
  if (value === null || value === undefined) {
    // An assistant message that only carried tool_calls has null content.
    if (role !== "user" && role !== "system" && role !== "developer") return { text: "", images: [] };
    throw new OpenAiRequestError(`${param} must be a string or an array of content parts.`, param);
  }
  const texts: string[] = [];
  const images: ImageSource[] = [];
  value.forEach((part, i) => {
    if (TEXT_PARTS.has(part.type)) {
      if (typeof part.text !== "string") throw new OpenAiRequestError(`${param}[${i}].text must be a string.`, `${param}[${i}].text`);
      texts.push(part.text);
    } else if (part.type === "image_url") {
      if (!isLast) return;
      if (images.length === MAX_IMAGE_PARTS) throw new OpenAiRequestError(`At most ${MAX_IMAGE_PARTS} image_url parts are taken from the latest message.`, `${param}[${i}]`);
      images.push(chatImagePart(part, `${param}[${i}]`));
    } else if (MEDIA_PARTS.has(part.type)) {
      if (isLast) throw new OpenAiRequestError(`Content parts of type '${part.type}' are not supported: only text and image_url parts.`, `${param}[${i}]`);
    } else if (part.type !== "refusal") {
      throw new OpenAiRequestError(`${param}[${i}].type '${part.type}' is not a supported content part type.`, `${param}[${i}].type`);
    }
  });
  return { text: texts.join("\n"), images };
}

/**
 * Conversation turns for a stateless request. Tool output is kept as labelled user-side text so
 * the agent still sees what the client's tools returned.
 */
function historyEntry(m: ParsedMessage): ParsedChatRequest["history"] {
  if (m.text.trim() === "") return [];
  if (m.role === "user" || m.role === "assistant") return [{ role: m.role, text: m.text }];
  if (m.role === "tool" || m.role === "function") return [{ role: "user", text: `Tool result${m.source ? ` (${m.source})` : ""}:\n${m.text}` }];
  return [];
}
