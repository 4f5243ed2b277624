import { compileToolPattern } from "./tool-pattern.js";
import { normalizeToolName } from "./tool-names.js";

/**
 * `group:*` shorthands usable anywhere a tool list is accepted (profiles, allow, deny, every
 * layer). Members follow current OpenClaw (see docs/tools.md) where it differs from older
 * write-ups: `group:runtime` carries `code_execution` rather than `bash` (`bash` is folded onto
 * `exec` by name normalization), `group:web` carries `x_search`, `group:automation` carries
 * `heartbeat_respond`, `group:agents` carries the goal tools and `progress_card`. Members may be
 * wildcards or other groups.
 */
/** The session tools by name, held by `group:sessions` and by the sandbox's default allow list. */
export const SESSION_TOOL_NAMES: readonly string[] = [
  "sessions_list",
  "sessions_history",
  "sessions_search",
  "sessions_send",
  "sessions_spawn",
  "sessions_yield",
  "subagents",
  "session_status",
];

export const TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  "group:fs": ["read", "write", "edit", "apply_patch"],
  "group:runtime": ["exec", "process", "code_execution"],
  "group:web": ["web_search", "x_search", "web_fetch"],
  "group:sessions": ["sessions", ...SESSION_TOOL_NAMES, "conversations_*"],
  "group:memory": ["memory_search", "memory_get"],
  "group:ui": ["browser", "canvas"],
  "group:automation": ["cron", "gateway", "heartbeat_respond"],
  "group:messaging": ["message"],
  "group:nodes": ["nodes", "computer"],
  "group:agents": ["agents_list", "get_goal", "create_goal", "update_goal", "progress_card"],
  "group:media": ["image", "view_image", "image_generate", "video_generate", "music_generate", "tts"],
  // The reference defines this as every built-in except the fs/runtime primitives and canvas:
  // "allow group:openclaw" grants OpenClaw's own capabilities without handing out a shell.
  "group:openclaw": ["group:web", "group:sessions", "group:memory", "group:automation", "group:messaging", "group:nodes", "group:agents", "group:media", "browser", "ask_user"],
};

/**
 * Matches every tool that is not built in (MCP and plugin tools). It cannot be expanded to a
 * fixed list, so matchers evaluate it against each tool name instead.
 */
export const PLUGINS_GROUP = "group:plugins";

/**
 * OpenClaw's plugin id for the tools of `mcp.servers`: usable in any tool list, it matches every
 * MCP tool (`<server>__<tool>`). `docs__*` names one server's.
 */
export const MCP_TOOLS_ENTRY = "bundle-mcp";

// Built-ins that belong to no group but still count as "built in" for group:plugins.
const UNGROUPED_BUILT_INS = ["canvas", "ask_user", "skill_workshop"];

export function isToolGroup(entry: string): boolean {
  return entry.trim().toLowerCase().startsWith("group:");
}

export function isKnownToolGroup(entry: string): boolean {
  const key = entry.trim().toLowerCase();
  return key === PLUGINS_GROUP || Object.hasOwn(TOOL_GROUPS, key);
}

/**
 * Expands `group:*` entries (recursively) into their members, normalizes names (case,
 * aliases) and drops duplicates, keeping first-seen order. Wildcards stay wildcards: they can
 * only be resolved against a concrete set of tools (see `compileToolList`). `group:plugins`
 * and unknown groups are kept verbatim for the same reason / so callers can report them.
 */
export function expandToolNames(list: readonly string[]): string[] {
  const out = new Set<string>();
  const visit = (entry: string, seen: ReadonlySet<string>): void => {
    const key = entry.trim().toLowerCase();
    if (!key) return;
    const members = Object.hasOwn(TOOL_GROUPS, key) ? TOOL_GROUPS[key] : undefined;
    if (!members) {
      out.add(isToolGroup(key) ? key : normalizeToolName(key));
      return;
    }
    if (seen.has(key)) return; // a group that (indirectly) contains itself adds nothing new
    const inner = new Set(seen).add(key);
    for (const member of members) visit(member, inner);
  };
  for (const entry of list) visit(entry, new Set());
  return [...out];
}

const builtInMatchers = expandToolNames([...Object.keys(TOOL_GROUPS), ...UNGROUPED_BUILT_INS]).map(compileToolPattern);

/** True for tools OpenClaw ships itself; false for MCP / plugin tools. */
export function isBuiltInTool(toolName: string): boolean {
  return builtInMatchers.some((matches) => matches(toolName));
}

/** An MCP server's tool: `<server>__<tool>`, which no built-in tool is named like. */
export function isMcpToolName(toolName: string): boolean {
  return toolName.includes("__") && !isBuiltInTool(toolName);
}
