import { OpenAiRequestError } from "./openai-errors.js";

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
