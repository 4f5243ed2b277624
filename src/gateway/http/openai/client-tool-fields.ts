import type { ClientToolSpec } from "../../../agents/client-tools.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { isRecord } from "./request-fields.js";

/** The client's tools for the turn and whether it requires a call: `tool_choice: "none"` offers none. */
export interface ClientTools {
  tools?: ClientToolSpec[];
  choice?: "required" | { name: string };
}

/** OpenAI's rule for function names. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Chat Completions: `tools: [{type: "function", function: {name, description?, parameters?}}]`. */
export function chatClientTools(tools: unknown, choice: unknown): ClientTools {
  return clientTools(tools, choice, "chat", (entry, param) => {
    if (!isRecord(entry.function)) throw new OpenAiRequestError(`${param}.function must be an object with a name.`, `${param}.function`);
    return toolSpec(entry.function, `${param}.function`);
  });
}

/** Responses: `tools: [{type: "function", name, description?, parameters?}]`. */
export function responsesClientTools(tools: unknown, choice: unknown): ClientTools {
  return clientTools(tools, choice, "responses", (entry, param) => toolSpec(entry, param));
}

function clientTools(tools: unknown, choice: unknown, api: "chat" | "responses", specOf: (entry: Record<string, unknown>, param: string) => ClientToolSpec): ClientTools {
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) throw new OpenAiRequestError("`tools` must be an array.", "tools");
  const specs = (tools ?? []).map((entry, i) => {
    const param = `tools[${i}]`;
    if (!isRecord(entry)) throw new OpenAiRequestError(`${param} must be an object.`, param);
    if (entry.type !== "function") throw new OpenAiRequestError(`${param}.type '${String(entry.type)}' is not supported: only function tools.`, `${param}.type`);
    return specOf(entry, param);
  });
  const names = new Set<string>();
  specs.forEach((spec, i) => {
    if (names.has(spec.name)) throw new OpenAiRequestError(`tools[${i}]: the name '${spec.name}' is used twice.`, `tools[${i}]`);
    names.add(spec.name);
  });
  const parsed = toolChoice(choice, api);
  if (parsed === "none" || specs.length === 0) {
    if (parsed !== undefined && parsed !== "none" && parsed !== "auto") throw new OpenAiRequestError("`tool_choice` requires a tool call, but `tools` lists none.", "tool_choice");
    return {};
  }
  if (typeof parsed === "object" && !names.has(parsed.name)) throw new OpenAiRequestError(`\`tool_choice\` names '${parsed.name}', which is not in \`tools\`.`, "tool_choice");
  return { tools: specs, ...(parsed === "required" || typeof parsed === "object" ? { choice: parsed } : {}) };
}

function toolSpec(fields: Record<string, unknown>, param: string): ClientToolSpec {
  const { name, description, parameters } = fields;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) throw new OpenAiRequestError(`${param}.name must be 1-64 letters, digits, '_' or '-'.`, `${param}.name`);
  if (description !== undefined && description !== null && typeof description !== "string")
    throw new OpenAiRequestError(`${param}.description must be a string.`, `${param}.description`);
  if (parameters !== undefined && parameters !== null && !isRecord(parameters))
    throw new OpenAiRequestError(`${param}.parameters must be a JSON Schema object.`, `${param}.parameters`);
  return { name, ...(typeof description === "string" ? { description } : {}), ...(isRecord(parameters) ? { parameters } : {}) };
}

/** `auto`, `none`, `required`, or one function: `{type: "function", function: {name}}` (Chat) / `{type: "function", name}` (Responses). */
function toolChoice(choice: unknown, api: "chat" | "responses"): "auto" | "none" | "required" | { name: string } | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (isRecord(choice) && choice.type === "function") {
    const name = api === "chat" ? (isRecord(choice.function) ? choice.function.name : undefined) : choice.name;
    if (typeof name === "string" && name !== "") return { name };
  }
  const pinned = api === "chat" ? "{type: 'function', function: {name}}" : "{type: 'function', name}";
  throw new OpenAiRequestError(`\`tool_choice\` must be 'auto', 'none', 'required' or ${pinned}.`, "tool_choice");
}
