import type { ToolCallBlock } from "./messages.js";

/**
 * Streamed tool-call arguments arrive as JSON text split over many chunks; this parses the
 * joined text. Broken JSON is never a throw and never a call with guessed arguments: the call
 * carries the problem (`argumentsError`) and goes back to the model as a tool error.
 */
export function parseToolArguments(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Providers send nothing at all for a call without parameters.
  if (raw.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { ok: false, error: `arguments are not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "arguments must be a JSON object" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** The arguments of a call as it goes on: parsed, or empty with the reason they could not be. */
export function toolCallArguments(raw: string): Pick<ToolCallBlock, "arguments" | "argumentsError"> {
  const parsed = parseToolArguments(raw);
  return parsed.ok ? { arguments: parsed.value } : { arguments: {}, argumentsError: parsed.error };
}
