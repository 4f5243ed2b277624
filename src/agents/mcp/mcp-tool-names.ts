/** Between a server's prefix and its tool's name: `docs__search`. Built-in tools never contain it. */
export const MCP_TOOL_SEPARATOR = "__";

/** The longest tool name providers take (OpenAI's function names: 64 of `[A-Za-z0-9_-]`). */
const MAX_TOOL_NAME = 64;
const MAX_PREFIX = 24;

/**
 * The provider-safe prefix of a server's tools, as OpenClaw makes it: lower case, each run of
 * characters outside `[a-z0-9_-]` one `-`, `mcp-` in front of a name that does not start with a
 * letter, at most 24 characters (`mcp.servers["Outlook Graph"]` → `outlook-graph`).
 */
export function mcpServerPrefix(serverName: string): string {
  let prefix = serverName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (!/^[a-z]/.test(prefix)) prefix = `mcp-${prefix}`;
  return prefix.slice(0, MAX_PREFIX).replace(/-+$/, "");
}

/** `<prefix>__<tool>`, the tool's characters made provider-safe and the whole cut to 64; `taken` makes it unique with `-2`, `-3`, …. */
export function mcpToolName(prefix: string, toolName: string, taken: ReadonlySet<string>): string {
  const base = `${prefix}${MCP_TOOL_SEPARATOR}${toolName.replace(/[^A-Za-z0-9_-]/g, "-")}`.slice(0, MAX_TOOL_NAME);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Whether an MCP tool name passes a server's `toolFilter` (`include` keeps only matches, `exclude` hides them; `*` globs). */
export function passesToolFilter(toolName: string, filter: { include?: readonly string[]; exclude?: readonly string[] } | undefined): boolean {
  if (!filter) return true;
  if (filter.include && filter.include.length > 0 && !filter.include.some((pattern) => globMatches(pattern, toolName))) return false;
  return !(filter.exclude ?? []).some((pattern) => globMatches(pattern, toolName));
}

function globMatches(pattern: string, name: string): boolean {
  const regex = new RegExp(`^${pattern.trim().split("*").map(escapeRegex).join(".*")}$`);
  return regex.test(name);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
