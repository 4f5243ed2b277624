import { normalizeToolName } from "../policy/tool-names.js";
import type { ToolCallBlock, ToolResult } from "../types.js";
import { canonicalJson, digest } from "./canonical-json.js";

/** Same tool + same arguments (key order and name case ignored) ⇒ same signature. */
export function callSignature(call: ToolCallBlock): string {
  return `${normalizeToolName(call.name)}:${digest(canonicalJson(call.arguments))}`;
}

// Fields that differ on every run of an otherwise identical call (timings, process ids,
// message ids). Left in, they would make a stuck call look like progress.
const VOLATILE_KEYS = new Set(["durationms", "duration", "elapsedms", "tookms", "pid", "cwd", "messageid", "ts", "timestamp", "startedat", "endedat", "finishedat"]);

// The same in plain text: tools print elapsed times and process ids in their status lines
// ("[exit code 1 · 0.3 s]", "[running for 12.4 s (pid 812)]") and timestamps in output.
const VOLATILE_TEXT: readonly [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>"],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|min|minutes?)\b/gi, "<elapsed>"],
  [/\bpid\s*[:=]?\s*\d+/gi, "pid <n>"],
];

/**
 * What the call returned, reduced to what matters for "did anything change": the error flag
 * and the content the model sees. JSON text bodies lose their volatile fields first; elapsed
 * times, pids and timestamps in any text are masked.
 * `details` is ignored: it is for UIs and logs, never seen by the model.
 */
export function resultFingerprint(result: ToolResult): string {
  const content = result.content.map((block) => (block.type === "text" ? { text: stableText(block.text) } : { image: block.mimeType, data: digest(block.data) }));
  return digest(canonicalJson({ isError: result.isError === true, content }));
}

function stableText(text: string): string {
  return maskVolatileText(withoutVolatileJson(text));
}

function withoutVolatileJson(text: string): string {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return canonicalJson(dropVolatile(JSON.parse(text)));
  } catch {
    return text;
  }
}

function maskVolatileText(text: string): string {
  return VOLATILE_TEXT.reduce((out, [pattern, mask]) => out.replace(pattern, mask), text);
}

function dropVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropVolatile);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (!VOLATILE_KEYS.has(key.toLowerCase())) out[key] = dropVolatile(member);
  }
  return out;
}
