import { isBuiltInTool, isKnownToolGroup, isMcpToolName, isToolGroup, MCP_TOOLS_ENTRY, PLUGINS_GROUP, TOOL_GROUPS } from "./tool-groups.js";
import { compileToolPattern } from "./tool-pattern.js";

/** A compiled allow or deny list that can say which of its entries matched a tool. */
export interface ToolListMatcher {
  /** The entries as written in config (blank ones dropped). */
  readonly entries: readonly string[];
  /** `group:*` entries that name no known group; they match nothing. */
  readonly unknownGroups: readonly string[];
  /** The first entry (as written) matching the tool, or undefined. */
  matchOf(toolName: string): string | undefined;
}

export function compileToolList(entries: readonly string[]): ToolListMatcher {
  const written = entries.map((entry) => entry.trim()).filter((entry) => entry !== "");
  const unknownGroups = written.filter((entry) => isToolGroup(entry) && !isKnownToolGroup(entry));
  // Each written entry keeps its own predicate so explanations can quote the entry that hit.
  const compiled = written.map((entry) => ({ entry, matches: compileEntry(entry) }));
  return {
    entries: written,
    unknownGroups,
    matchOf: (toolName) => compiled.find((c) => c.matches(toolName))?.entry,
  };
}

function compileEntry(entry: string, seen: ReadonlySet<string> = new Set()): (toolName: string) => boolean {
  const key = entry.trim().toLowerCase();
  if (key === PLUGINS_GROUP) return (toolName) => !isBuiltInTool(toolName);
  if (key === MCP_TOOLS_ENTRY) return isMcpToolName;
  if (!isToolGroup(key)) return compileToolPattern(key);
  const members = Object.hasOwn(TOOL_GROUPS, key) && !seen.has(key) ? TOOL_GROUPS[key] : [];
  const inner = new Set(seen).add(key);
  const predicates = members.map((member) => compileEntry(member, inner));
  return (toolName) => predicates.some((matches) => matches(toolName));
}
