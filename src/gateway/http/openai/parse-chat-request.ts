import type { ChatCompletionBody, ChatMessage } from "./chat-request-schema.js";
import { chatImagePart, type ImageSource, MAX_IMAGE_PARTS } from "./image-sources.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { chatClientTools, type ClientTools } from "./client-tool-fields.js";
import { chatFilePart, type FileSource, MAX_FILE_PARTS } from "./file-parts.js";
import { isRecord } from "./request-fields.js";

export interface ParsedChatRequest {
  /** The `model` string as sent; echoed back in responses. */
  model?: string;
  stream: boolean;
  includeUsage: boolean;
  user?: string;
  /**
   * Text of the last (user) message; when the request ends with tool results (the answer to the
   * client tool calls of the previous response), those results, labelled with their tools.
   */
  message: string;
  /** The last message's images, in order (not yet fetched or decoded). */
  images: ImageSource[];
  /** The last message's text files (`file` parts), read into the system prompt. */
  files: FileSource[];
  extraSystemPrompt?: string;
  /** Every conversation message before the last one, as plain text. */
  history: { role: "user" | "assistant"; text: string }[];
  /** The request's sampling fields and token cap, as model params for its turn (absent when it sets none). */
  modelParams?: Record<string, unknown>;
  /** `tools` and `tool_choice`: the function tools the client runs itself. */
  clientTools: ClientTools;
}

type Role = ChatMessage["role"];
const TEXT_PARTS = new Set(["text", "input_text"]);
const MEDIA_PARTS = new Set(["input_image", "input_audio", "input_file"]);

/**
 * The rules of a `POST /v1/chat/completions` body that its shape cannot state; the shape itself
 * (types, ranges, roles) is the route's schema, checked before this runs (chat-request-schema.ts).
 */
export function parseChatRequest(body: ChatCompletionBody): ParsedChatRequest {
  const clientTools = chatClientTools(body.tools, body.tool_choice);
  const stream = body.stream ?? false;
  const parsed = body.messages.map((m, i) => parseMessage(m, `messages[${i}]`, i === body.messages.length - 1));
  // A request that ends with tool results answers the previous response's client tool calls: the
  // results are the turn's message.
  let turnStart = parsed.length;
  while (turnStart > 0 && isToolOutput(parsed[turnStart - 1]!)) turnStart -= 1;
  const results = parsed.slice(turnStart);
  const last = results.length > 0 ? { role: "user" as const, text: toolResultsText(results, parsed), images: [], files: [] } : parsed[parsed.length - 1]!;
  if (last.role !== "user") throw new OpenAiRequestError("The last message in `messages` must have role 'user' (or be tool results).", "messages");
  if (last.text.trim() === "" && last.images.length === 0) throw new OpenAiRequestError("Missing user message in `messages`.", "messages");

  const system = parsed
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.text)
    .filter((t) => t.trim() !== "");
  const history = parsed.slice(0, results.length > 0 ? turnStart : -1).flatMap(historyEntry);
  const modelParams = samplingParams(body);
  return {
    ...(body.model ? { model: body.model } : {}),
    ...(body.user ? { user: body.user } : {}),
    stream,
    includeUsage: stream && (body.stream_options?.include_usage ?? false),
    message: last.text,
    images: last.images,
    files: last.files,
    ...(system.length > 0 ? { extraSystemPrompt: system.join("\n\n") } : {}),
    history,
    ...(modelParams ? { modelParams } : {}),
    clientTools,
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
  files: FileSource[];
  /** `name` (function role): the tool whose output this is. */
  name?: string;
  /** `tool_call_id` (tool role): the call this answers. */
  toolCallId?: string;
  /** An assistant message's `tool_calls`. */
  calls?: { id: string; name: string; arguments: string }[];
}

function parseMessage(raw: ChatMessage, param: string, isLast: boolean): ParsedMessage {
  const { text, images, files } = content(raw.content, raw.role, `${param}.content`, isLast);
  const calls = raw.role === "assistant" ? toolCallsOf((raw as Record<string, unknown>).tool_calls) : [];
  return {
    role: raw.role,
    text,
    images,
    files,
    ...(typeof raw.name === "string" ? { name: raw.name } : {}),
    ...(typeof raw.tool_call_id === "string" ? { toolCallId: raw.tool_call_id } : {}),
    ...(calls.length > 0 ? { calls } : {}),
  };
}

/** An assistant message's function calls, as far as they are well formed (others carry nothing for the agent). */
function toolCallsOf(value: unknown): NonNullable<ParsedMessage["calls"]> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((call) => {
    if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== "string") return [];
    const args = typeof call.function.arguments === "string" ? call.function.arguments : JSON.stringify(call.function.arguments ?? {});
    return [{ id: typeof call.id === "string" ? call.id : "", name: call.function.name, arguments: args }];
  });
}

function isToolOutput(message: ParsedMessage): boolean {
  return message.role === "tool" || message.role === "function";
}

/** `Tool result of get_weather (call_1)`: the tool's name from the call it answers, when the request has it. */
function toolResultLabel(message: ParsedMessage, all: readonly ParsedMessage[]): string {
  const name = message.name ?? all.flatMap((m) => m.calls ?? []).find((call) => call.id === message.toolCallId)?.name;
  const id = message.toolCallId ? ` (${message.toolCallId})` : "";
  return name ? `Tool result of ${name}${id}` : `Tool result${id}`;
}

function toolResultsText(results: readonly ParsedMessage[], all: readonly ParsedMessage[]): string {
  return results.map((m) => `${toolResultLabel(m, all)}:\n${m.text}`).join("\n\n");
}

/**
 * String content, or the joined text of its parts and, in the latest message, its images and text
 * files (at most MAX_IMAGE_PARTS and MAX_FILE_PARTS). As upstream, media is read only from the
 * latest user message and dropped from older ones. Audio parts there are refused.
 */
function content(value: ChatMessage["content"], role: Role, param: string, isLast: boolean): { text: string; images: ImageSource[]; files: FileSource[] } {
  if (typeof value === "string") return { text: value, images: [], files: [] };
  if (value === null || value === undefined) {
    // An assistant message that only carried tool_calls has null content.
    if (role !== "user" && role !== "system" && role !== "developer") return { text: "", images: [], files: [] };
    throw new OpenAiRequestError(`${param} must be a string or an array of content parts.`, param);
  }
  const texts: string[] = [];
  const images: ImageSource[] = [];
  const files: FileSource[] = [];
  value.forEach((part, i) => {
    if (TEXT_PARTS.has(part.type)) {
      if (typeof part.text !== "string") throw new OpenAiRequestError(`${param}[${i}].text must be a string.`, `${param}[${i}].text`);
      texts.push(part.text);
    } else if (part.type === "image_url") {
      if (!isLast) return;
      if (images.length === MAX_IMAGE_PARTS) throw new OpenAiRequestError(`At most ${MAX_IMAGE_PARTS} image_url parts are taken from the latest message.`, `${param}[${i}]`);
      images.push(chatImagePart(part, `${param}[${i}]`));
    } else if (part.type === "file") {
      if (!isLast) return;
      if (files.length === MAX_FILE_PARTS) throw new OpenAiRequestError(`At most ${MAX_FILE_PARTS} file parts are taken from the latest message.`, `${param}[${i}]`);
      files.push(chatFilePart(part, `${param}[${i}]`));
    } else if (MEDIA_PARTS.has(part.type)) {
      if (isLast) throw new OpenAiRequestError(`Content parts of type '${part.type}' are not supported: only text, image_url and file parts.`, `${param}[${i}]`);
    } else if (part.type !== "refusal") {
      throw new OpenAiRequestError(`${param}[${i}].type '${part.type}' is not a supported content part type.`, `${param}[${i}].type`);
    }
  });
  return { text: texts.join("\n"), images, files };
}

/**
 * Conversation turns for a stateless request, as text. An assistant's tool calls are named after
 * its text, and tool output is kept as labelled user-side text, so the agent still sees what it
 * asked the client's tools and what they returned.
 */
function historyEntry(m: ParsedMessage, _i: number, all: readonly ParsedMessage[]): ParsedChatRequest["history"] {
  if (m.role === "assistant") {
    const calls = (m.calls ?? []).map((call) => `[called ${call.name} with ${call.arguments}${call.id ? ` (${call.id})` : ""}]`);
    const text = [m.text, ...calls].filter((line) => line.trim() !== "").join("\n");
    return text ? [{ role: "assistant", text }] : [];
  }
  if (isToolOutput(m)) return [{ role: "user", text: `${toolResultLabel(m, all)}:\n${m.text}` }];
  if (m.text.trim() === "") return [];
  if (m.role === "user") return [{ role: m.role, text: m.text }];
  return [];
}
