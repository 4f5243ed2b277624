import { MCP_TOOLS_ENTRY } from "./tool-groups.js";

/**
 * `tools.profile` presets: the base allow list every later layer narrows. Contents follow current
 * OpenClaw (see docs/tools.md), MCP servers' tools in `coding` and `messaging`; `full` means no
 * restriction, like no profile.
 */
export const TOOL_PROFILE_NAMES = ["minimal", "coding", "messaging", "full"] as const;
export type ToolProfileName = (typeof TOOL_PROFILE_NAMES)[number];

const PROFILE_ALLOW: Readonly<Record<ToolProfileName, readonly string[] | undefined>> = {
  minimal: ["session_status"],
  coding: [
    "group:fs",
    "group:runtime",
    "group:web",
    "group:sessions",
    "group:memory",
    "group:media",
    "cron",
    "get_goal",
    "create_goal",
    "update_goal",
    "progress_card",
    "ask_user",
    "skill_workshop",
    MCP_TOOLS_ENTRY,
  ],
  messaging: [
    "group:messaging",
    "sessions_list",
    "sessions_history",
    "sessions_search",
    "sessions_send",
    "conversations_*",
    "sessions_spawn",
    "sessions_yield",
    "subagents",
    "session_status",
    "ask_user",
    MCP_TOOLS_ENTRY,
  ],
  full: undefined,
};

export function isToolProfileName(value: string): value is ToolProfileName {
  return (TOOL_PROFILE_NAMES as readonly string[]).includes(value);
}

/** The profile's allow list, or undefined when the profile restricts nothing (`full`). */
export function profileAllowList(profile: ToolProfileName): readonly string[] | undefined {
  return PROFILE_ALLOW[profile];
}
