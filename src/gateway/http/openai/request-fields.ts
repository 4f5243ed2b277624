import { OpenAiRequestError } from "./openai-errors.js";

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
