import { isRecord, optionalBoolean, optionalString } from "./request-fields.js";
import { responsesClientTools, type ClientTools } from "./client-tool-fields.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { type ImageSource, MAX_IMAGE_PARTS, responsesImagePart } from "./image-sources.js";
import { type FileSource, MAX_FILE_PARTS, responsesFilePart } from "./file-parts.js";

export interface ParsedResponsesRequest {
  /** The `model` string as sent (an agent target); echoed back. */
  model?: string;
  stream: boolean;
  user?: string;
  previousResponseId?: string;
  /**
   * Text of the last user input: the turn; when the input ends with `function_call_output` items
   * (the answer to the previous response's client tool calls), those outputs, labelled.
   */
  message: string;
  /** The last user input's images (`input_image` parts), in order, not yet fetched or decoded. */
  images: ImageSource[];
  /** The last user input's text files (`input_file` parts), read into the system prompt. */
  files: FileSource[];
  /** `instructions` and system / developer input messages, joined by blank lines. */
  extraSystemPrompt?: string;
  /** Input messages before the last user one, as plain text (replayed only into a fresh session). */
  history: { role: "user" | "assistant"; text: string }[];
  /** Echoed back on the response object. */
  instructions?: string;
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  /** `tools` and `tool_choice`: the function tools the client runs itself. */
  clientTools: ClientTools;
}

const TEXT_PARTS = new Set(["input_text", "output_text", "text"]);
const ROLES = new Set(["user", "assistant", "system", "developer"]);
// Items OpenResponses clients may send that carry nothing for the agent.
const IGNORED_ITEMS = new Set(["reasoning", "item_reference"]);

/**
 * Validates a `POST /v1/responses` body. `input` is a string or a list of items: message items
 * (`user`, `assistant`, `system`, `developer`), the client tool calls of an earlier response
 * (`function_call`) and their outputs (`function_call_output`). Fields the gateway does not act on
 * (`reasoning`, `metadata`, `store`, `truncation`, `max_tool_calls`, …) are accepted and ignored.
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
  const clientTools = responsesClientTools(body.tools, body.tool_choice);

  const items = inputItems(body.input);
  let turnStart = items.length;
  while (turnStart > 0 && items[turnStart - 1]!.role === "tool") turnStart -= 1;
  const results = items.slice(turnStart);
  const last = results.length > 0 ? { role: "user", text: results.map((m) => m.text).join("\n\n"), images: [], files: [] } : items[items.length - 1];
  if (last?.role !== "user" || (last.text.trim() === "" && last.images.length === 0)) {
    throw new OpenAiRequestError("Missing user input: `input` must be a string or end with a user message that has text or an image, or with function_call_output items.", "input");
  }
  const system = [instructions ?? "", ...items.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.text)].filter((t) => t.trim() !== "");
  const history = items
    .slice(0, results.length > 0 ? turnStart : -1)
    .filter((m) => (m.role === "user" || m.role === "assistant" || m.role === "tool") && m.text.trim() !== "")
    .map((m) => ({ role: m.role === "assistant" ? ("assistant" as const) : ("user" as const), text: m.text }));
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
    files: last.files,
    ...(system.length > 0 ? { extraSystemPrompt: system.join("\n\n") } : {}),
    history,
    clientTools,
  };
}

/** An input item as the agent reads it: a message, a client tool call (`assistant`) or its output (`tool`, labelled). */
interface InputMessage {
  role: string;
  text: string;
  images: ImageSource[];
  files: FileSource[];
}

function inputItems(input: unknown): InputMessage[] {
  if (typeof input === "string") return [{ role: "user", text: input, images: [], files: [] }];
  if (!Array.isArray(input) || input.length === 0) throw new OpenAiRequestError("`input` must be a string or a non-empty array of items.", "input");
  const out: InputMessage[] = [];
  // Client tool calls' names by call id, to label their outputs.
  const calls = new Map<string, string>();
  input.forEach((item, i) => {
    const param = `input[${i}]`;
    if (!isRecord(item)) throw new OpenAiRequestError(`${param} must be an object.`, param);
    const type = item.type ?? "message";
    if (typeof type !== "string") throw new OpenAiRequestError(`${param}.type must be a string.`, `${param}.type`);
    if (IGNORED_ITEMS.has(type)) return;
    if (type === "function_call") {
      if (typeof item.name !== "string") throw new OpenAiRequestError(`${param}.name must be a string.`, `${param}.name`);
      const args = typeof item.arguments === "string" ? item.arguments : JSON.stringify(item.arguments ?? {});
      const id = typeof item.call_id === "string" ? ` (${item.call_id})` : "";
      calls.set(String(item.call_id), item.name);
      out.push({ role: "assistant", text: `[called ${item.name} with ${args}${id}]`, images: [], files: [] });
      return;
    }
    if (type === "function_call_output") {
      if (typeof item.call_id !== "string") throw new OpenAiRequestError(`${param}.call_id must be a string.`, `${param}.call_id`);
      const output = typeof item.output === "string" ? item.output : content(item.output, `${param}.output`).text;
      const name = calls.get(item.call_id);
      out.push({ role: "tool", text: `Tool result${name ? ` of ${name}` : ""} (${item.call_id}):\n${output}`, images: [], files: [] });
      return;
    }
    if (type !== "message") throw new OpenAiRequestError(`${param}.type '${type}' is not a supported input item.`, `${param}.type`);
    if (typeof item.role !== "string" || !ROLES.has(item.role)) {
      throw new OpenAiRequestError(`${param}.role must be one of ${[...ROLES].join(", ")}.`, `${param}.role`);
    }
    out.push({ role: item.role, ...content(item.content, `${param}.content`) });
  });
  // Images and files count only in the input's last message (the turn); earlier ones are dropped, as upstream.
  return out.map((message, i) => (i === out.length - 1 || (message.images.length === 0 && message.files.length === 0) ? message : { ...message, images: [], files: [] }));
}

/** Text parts joined, `input_image` and `input_file` parts (at most MAX_IMAGE_PARTS and MAX_FILE_PARTS a message); other media is refused. */
function content(value: unknown, param: string): { text: string; images: ImageSource[]; files: FileSource[] } {
  if (typeof value === "string") return { text: value, images: [], files: [] };
  if (!Array.isArray(value)) throw new OpenAiRequestError(`${param} must be a string or an array of content parts.`, param);
  const texts: string[] = [];
  const images: ImageSource[] = [];
  const files: FileSource[] = [];
  value.forEach((part, i) => {
    if (!isRecord(part) || typeof part.type !== "string") throw new OpenAiRequestError(`${param}[${i}] must be an object with a string 'type'.`, `${param}[${i}]`);
    if (TEXT_PARTS.has(part.type)) {
      if (typeof part.text !== "string") throw new OpenAiRequestError(`${param}[${i}].text must be a string.`, `${param}[${i}].text`);
      texts.push(part.text);
    } else if (part.type === "input_image") {
      if (images.length === MAX_IMAGE_PARTS) throw new OpenAiRequestError(`At most ${MAX_IMAGE_PARTS} input_image parts are taken from a message.`, `${param}[${i}]`);
      images.push(responsesImagePart(part, `${param}[${i}]`));
    } else if (part.type === "input_file") {
      if (files.length === MAX_FILE_PARTS) throw new OpenAiRequestError(`At most ${MAX_FILE_PARTS} input_file parts are taken from a message.`, `${param}[${i}]`);
      files.push(responsesFilePart(part, `${param}[${i}]`));
    } else if (part.type !== "refusal") {
      throw new OpenAiRequestError(`Content parts of type '${part.type}' are not supported (text, input_image and input_file only).`, `${param}[${i}].type`);
    }
  });
  return { text: texts.join("\n"), images, files };
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
