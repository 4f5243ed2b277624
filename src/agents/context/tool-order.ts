/**
 * OpenClaw lists core tools in this fixed order and every other tool after them alphabetically
 * (see docs/agents.md). A fixed order keeps the prompt byte-identical however the tool registry
 * happened to be filled (plugin load order, a Map), which is what prompt caching needs.
 */
export const CORE_TOOL_ORDER: readonly string[] = [
  "read",
  "write",
  "edit",
  "apply_patch",
  "grep",
  "find",
  "ls",
  "exec",
  "process",
  "web_search",
  "web_fetch",
  "browser",
  "canvas",
  "nodes",
  "cron",
  "message",
  "gateway",
  "agents_list",
  "sessions_list",
  "sessions_history",
  "sessions_send",
  "sessions_spawn",
  "session_status",
  "image",
];

const CORE_RANK = new Map(CORE_TOOL_ORDER.map((name, index) => [name, index]));

/** Core tools first in OpenClaw's order, then the rest by name; a repeated name is listed once. */
export function orderToolsForPrompt<T extends { name: string }>(tools: readonly T[]): T[] {
  const unique = new Map<string, T>();
  for (const tool of tools) if (!unique.has(tool.name)) unique.set(tool.name, tool);
  const rank = (name: string) => CORE_RANK.get(name) ?? CORE_TOOL_ORDER.length;
  return [...unique.values()].sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
