import { normalizeToolName } from "./tool-names.js";

/**
 * A single tool-list entry that is a name or a `*` wildcard ("memory_*", "*"), compiled to a
 * predicate over tool names. Only `*` is special: tool names are plain identifiers, so a
 * fuller glob syntax would only invite surprises.
 */
export function compileToolPattern(entry: string): (toolName: string) => boolean {
  const normalized = normalizeToolName(entry);
  if (!normalized.includes("*")) return (toolName) => normalizeToolName(toolName) === normalized;
  const source = normalized.split("*").map(escapeRegExp).join(".*");
  const regex = new RegExp(`^${source}$`);
  return (toolName) => regex.test(normalizeToolName(toolName));
}

export function isWildcard(entry: string): boolean {
  return entry.includes("*");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
