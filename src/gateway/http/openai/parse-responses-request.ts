import { checkToolChoice, isRecord, optionalBoolean, optionalString } from "./request-fields.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { type ImageSource, MAX_IMAGE_PARTS, responsesImagePart } from "./image-sources.js";

export interface ParsedResponsesRequest {
  /** The `model` string as sent (an agent target); echoed back. */
  model?: string;
  stream: boolean;
  user?: string;
  previousResponseId?: string;
  /** Text of the last user input: the turn. */
  message: string;
  /** The last user input's images (`input_image` parts), in order, not yet fetched or decoded. */
  images: ImageSource[];
  /** `instructions` and system / developer input messages, joined by blank lines. */
  extraSystemPrompt?: string;
  /** Input messages before the last user one, as plain text (replayed only into a fresh session). */
  history: { role: "user" | "assistant"; text: string }[];
  /** Echoed back on the response object. */
  instructions?: string;
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
}

const TEXT_PARTS = new Set(["input_text", "output_text", "text"]);
const ROLES = new Set(["user", "assistant", "system", "developer"]);
// Items OpenResponses clients may send that carry nothing for the agent.
const IGNORED_ITEMS = new Set(["reasoning", "item_reference"]);

/**
 * Validates a `POST /v1/responses` body. `input` is a string or a list of items; message items
 * (`user`, `assistant`, `system`, `developer`) are understood. Client tools are not forwarded to
 * the agent: `function_call_output` items and a `tool_choice` that demands a call are refused
 * with a clear error. Fields the gateway does not act on (`reasoning`, `metadata`, `store`,
 * `truncation`, `max_tool_calls`, …) are accepted and ignored.
 */
export function parseResponsesRequest(body: unknown): ParsedResponsesRequest {
  if (!isRecord(body)) throw new OpenAiRequestError("Request body must be a JSON object.");
  const model = optionalString(body, "model");
  const user = optionalString(body, "user");
  const previousResponseId = optionalString(body, "previous_response_id");
  const instructions = optionalString(body, "instructions");
  const stream = optionalBoolean(body, "stream") ?? false;
  const temperature = numberIn(body, "temperature", 0, 2);
  const topP = numberIn(body, "top_p", 0, 1);
  const maxOutputTokens = positiveInteger(body, "max_output_tokens");
  checkToolChoice(body.tool_choice);
  if (body.tools !== undefined && body.tools !== null && !Array.isArray(body.tools)) throw new OpenAiRequestError("`tools` must be an array.", "tools");

  const items = inputItems(body.input);
  const last = items[items.length - 1];
  if (last?.role !== "user" || (last.text.trim() === "" && last.images.length === 0)) {
    throw new OpenAiRequestError("Missing user input: `input` must be a string or end with a user message that has text or an image.", "input");
  }
  const system = [instructions ?? "", ...items.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.text)].filter((t) => t.trim() !== "");
  const history = items
    .slice(0, -1)
    .filter((m) => (m.role === "user" || m.role === "assistant") && m.text.trim() !== "")
    .map((m) => ({ role: m.role as "user" | "assistant", text: m.text }));
  return {
    ...(model ? { model } : {}),
    ...(user ? { user } : {}),
    ...(previousResponseId ? { previousResponseId } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    stream,
    message: last.text,
    images: last.images,
    ...(system.length > 0 ? { extraSystemPrompt: system.join("\n\n") } : {}),
    history,
  };
}

interface InputMessage {
  role: string;
  text: string;
  images: ImageSource[];
}

function inputItems(input: unknown): InputMessage[] {
  if (typeof input === "string") return [{ role: "user", text: input, images: [] }];
  if (!Array.isArray(input) || input.length === 0) throw new OpenAiRequestError("`input` must be a string or a non-empty array of items.", "input");
  const out: InputMessage[] = [];
  input.forEach((item, i) => {
    const param = `input[${i}]`;
    if (!isRecord(item)) throw new OpenAiRequestError(`${param} must be an object.`, param);
    const type = item.type ?? "message";
    if (typeof type !== "string") throw new OpenAiRequestError(`${param}.type must be a string.`, `${param}.type`);
    if (IGNORED_ITEMS.has(type)) return;
    if (type === "function_call_output" || type === "function_call") {
      throw new OpenAiRequestError(`${param}: '${type}' items are not supported: client tools are not forwarded to the agent.`, `${param}.type`);
    }
    if (type !== "message") throw new OpenAiRequestError(`${param}.type '${type}' is not a supported input item.`, `${param}.type`);
    if (typeof item.role !== "string" || !ROLES.has(item.role)) {
      throw new OpenAiRequestError(`${param}.role must be one of ${[...ROLES].join(", ")}.`, `${param}.role`);
    }
    out.push({ role: item.role, ...content(item.content, `${param}.content`) });
  });
  // Images count only in the input's last message (the turn); earlier ones are dropped, as upstream.
  return out.map((message, i) => (i === out.length - 1 || message.images.length === 0 ? message : { ...message, images: [] }));
}

/** Text parts joined, and `input_image` parts (at most MAX_IMAGE_PARTS a message); other media is refused. */
function content(value: unknown, param: string): { text: string; images: ImageSource[] } {
  if (typeof value === "string") return { text: value, images: [] };
  if (!Array.isArray(value)) throw new OpenAiRequestError(`${param} must be a string or an array of content parts.`, param);
  const texts: string[] = [];
  const images: ImageSource[] = [];
  value.forEach((part, i) => {
    if (!isRecord(part) || typeof part.type !== "string") throw new OpenAiRequestError(`${param}[${i}] must be an object with a string 'type'.`, `${param}[${i}]`);
    if (TEXT_PARTS.has(part.type)) {
      if (typeof part.text !== "string") throw new OpenAiRequestError(`${param}[${i}].text must be a string.`, `${param}[${i}].text`);
      texts.push(part.text);
    } else if (part.type === "input_image") {
      if (images.length === MAX_IMAGE_PARTS) throw new OpenAiRequestError(`At most ${MAX_IMAGE_PARTS} input_image parts are taken from a message.`, `${param}[${i}]`);
      images.push(responsesImagePart(part, `${param}[${i}]`));
    } else if (part.type !== "refusal") {
      throw new OpenAiRequestError(`Content parts of type '${part.type}' are not supported (text and input_image only).`, `${param}[${i}].type`);
    }
  });
  return { text: texts.join("\n"), images };
}

function numberIn(body: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) throw new OpenAiRequestError(`\`${name}\` must be a number between ${min} and ${max}.`, name);
  return v;
}

function positiveInteger(body: Record<string, unknown>, name: string): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw new OpenAiRequestError(`\`${name}\` must be an integer of at least 1.`, name);
  return v;
}
