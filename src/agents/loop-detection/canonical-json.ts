import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every depth, so `{a:1,b:2}` and `{b:2,a:1}` (the same
 * call, worded differently by the model) produce the same text. Undefined members are
 * dropped as JSON.stringify drops them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

/** A short, stable digest: history keeps hashes, not whole arguments and outputs. */
export function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}
