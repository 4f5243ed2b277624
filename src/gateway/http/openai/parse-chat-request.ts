import { OpenAiRequestError } from "./openai-errors.js";

export interface ParsedChatRequest {
  /** The `model` string as sent; echoed back in responses. */
  model?: string;
  stream: boolean;
  includeUsage: boolean;
  user?: string;
  /** Text of the last (user) message. */
  message: string;
  extraSystemPrompt?: string;
  /** Every conversation message before the last one, as plain text. */
  history: { role: "user" | "assistant"; text: string }[];
}

type Role = "system" | "developer" | "user" | "assistant" | "tool" | "function";
const ROLES = new Set<Role>(["system", "developer", "user", "assistant", "tool", "function"]);
const TEXT_PARTS = new Set(["text", "input_text"]);
const MEDIA_PARTS = new Set(["image_url", "input_image", "input_audio", "file", "input_file"]);

/**
 * Validate a `POST /v1/chat/completions` body. Only what the gateway acts on is checked strictly;
 * fields it does not use are ignored, because OpenAI clients send many (`logprobs`, `metadata`, …).
 * Sampling fields are range-checked like upstream does, so a client learns about its own typo.
 */
export function parseChatRequest(body: unknown): ParsedChatRequest {
  if (!isRecord(body)) throw new OpenAiRequestError("Request body must be a JSON object.");
  const model = optionalString(body, "model");
  const user = optionalString(body, "user");
  const stream = optionalBoolean(body, "stream") ?? false;
  const includeUsage = streamOptions(body);
  checkSamplingOptions(body);
  checkToolChoice(body.tool_choice);

  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new OpenAiRequestError("`messages` must be a non-empty array.", "messages");
  }
  const parsed = messages.map((m, i) => parseMessage(m, i, i === messages.length - 1));
  const last = parsed[parsed.length - 1]!;
  if (last.role !== "user") throw new OpenAiRequestError("The last message in `messages` must have role 'user'.", "messages");
  if (last.text.trim() === "") throw new OpenAiRequestError("Missing user message in `messages`.", "messages");

  const system = parsed.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.text).filter((t) => t.trim() !== "");
  const history = parsed.slice(0, -1).flatMap(historyEntry);
  return {
    ...(model ? { model } : {}),
    ...(user ? { user } : {}),
    stream,
    includeUsage: stream && includeUsage,
    message: last.text,
    ...(system.length > 0 ? { extraSystemPrompt: system.join("\n\n") } : {}),
    history,
  };
}

interface ParsedMessage {
  role: Role;
  text: string;
  /** `name` (function role) or `tool_call_id` (tool role), for labelling tool output. */
  source?: string;
}

function parseMessage(raw: unknown, index: number, isLast: boolean): ParsedMessage {
  const param = `messages[${index}]`;
  if (!isRecord(raw)) throw new OpenAiRequestError(`${param} must be an object.`, param);
  const role = raw.role;
  if (typeof role !== "string" || !ROLES.has(role as Role)) {
    throw new OpenAiRequestError(`${param}.role must be one of ${[...ROLES].join(", ")}.`, `${param}.role`);
  }
  const text = contentText(raw.content, role as Role, `${param}.content`, isLast);
  const source = typeof raw.name === "string" ? raw.name : typeof raw.tool_call_id === "string" ? raw.tool_call_id : undefined;
  return { role: role as Role, text, ...(source ? { source } : {}) };
}

/**
 * String content, or an array of parts whose text parts are joined. Upstream reads images only
 * from the latest user message; this gateway cannot pass media to a turn yet, so media there is
 * refused rather than dropped, and media in older messages is dropped as upstream does.
 */
function contentText(content: unknown, role: Role, param: string, isLast: boolean): string {
  if (typeof content === "string") return content;
  // An assistant message that only carried tool_calls has null content.
  if ((content === null || content === undefined) && role !== "user" && role !== "system" && role !== "developer") return "";
  if (!Array.isArray(content)) throw new OpenAiRequestError(`${param} must be a string or an array of content parts.`, param);
  const texts: string[] = [];
  content.forEach((part, i) => {
    if (!isRecord(part) || typeof part.type !== "string") {
      throw new OpenAiRequestError(`${param}[${i}] must be an object with a string 'type'.`, `${param}[${i}]`);
    }
    if (TEXT_PARTS.has(part.type)) {
      if (typeof part.text !== "string") throw new OpenAiRequestError(`${param}[${i}].text must be a string.`, `${param}[${i}].text`);
      texts.push(part.text);
    } else if (MEDIA_PARTS.has(part.type)) {
      if (isLast) throw new OpenAiRequestError(`Content parts of type '${part.type}' are not supported yet.`, `${param}[${i}]`);
    } else if (part.type !== "refusal") {
      throw new OpenAiRequestError(`${param}[${i}].type '${part.type}' is not a supported content part type.`, `${param}[${i}].type`);
    }
  });
  return texts.join("\n");
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

function streamOptions(body: Record<string, unknown>): boolean {
  const options = body.stream_options;
  if (options === undefined || options === null) return false;
  if (!isRecord(options)) throw new OpenAiRequestError("`stream_options` must be an object.", "stream_options");
  return optionalBoolean(options, "include_usage", "stream_options.include_usage") ?? false;
}

/** OpenClaw's accepted ranges, so a request it refuses is refused here too; the values themselves are not used yet. */
function checkSamplingOptions(body: Record<string, unknown>): void {
  const range = (name: string, min: number, max: number) => {
    const v = body[name];
    if (v === undefined || v === null) return;
    if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
      throw new OpenAiRequestError(`\`${name}\` must be a number between ${min} and ${max}.`, name);
    }
  };
  const integer = (name: string, min: number) => {
    const v = body[name];
    if (v === undefined || v === null) return;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
      throw new OpenAiRequestError(`\`${name}\` must be an integer${min > Number.MIN_SAFE_INTEGER ? ` of at least ${min}` : ""}.`, name);
    }
  };
  range("temperature", 0, 2);
  range("top_p", 0, 1);
  range("frequency_penalty", -2, 2);
  range("presence_penalty", -2, 2);
  integer("max_tokens", 1);
  integer("max_completion_tokens", 1);
  integer("seed", Number.MIN_SAFE_INTEGER);
  if (body.n !== undefined && body.n !== null && body.n !== 1) throw new OpenAiRequestError("Only `n: 1` is supported.", "n");
  const stop = body.stop;
  const stopOk = stop === undefined || stop === null || typeof stop === "string" ||
    (Array.isArray(stop) && stop.length <= 4 && stop.every((s) => typeof s === "string"));
  if (!stopOk) throw new OpenAiRequestError("`stop` must be a string or an array of at most 4 strings.", "stop");
}

/**
 * Client-side tools are not forwarded to the agent yet. `tools` alone is ignored (the agent just
 * answers in text), but a client that *demands* a tool call would wait for one that never comes.
 */
export function checkToolChoice(choice: unknown): void {
  if (choice === undefined || choice === null || choice === "auto" || choice === "none") return;
  throw new OpenAiRequestError("`tool_choice` other than 'auto' or 'none' is not supported yet: client tools are not forwarded to the agent.", "tool_choice");
}

export function optionalString(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new OpenAiRequestError(`\`${key}\` must be a string.`, key);
  return v;
}

export function optionalBoolean(obj: Record<string, unknown>, key: string, param = key): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new OpenAiRequestError(`\`${param}\` must be a boolean.`, param);
  return v;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
