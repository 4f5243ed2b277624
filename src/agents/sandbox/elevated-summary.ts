import type { OpenClawConfig } from "../../config/index.js";
import { findAgentTools } from "../policy/index.js";

/** Who `tools.elevated` admits for an agent, per channel: how many entries, or `*` for everyone. */
export interface ElevatedSummary {
  enabled: boolean;
  /** The global list's channels (an agent's list narrows them further; see `narrowedBy`). */
  allowFrom: Record<string, number | "*">;
  /** The agent's `tools.elevated.allowFrom` path when it has one. */
  narrowedBy?: string;
  /** The level of a session that set none (`agents.defaults.elevatedDefault`, else `on`). */
  defaultLevel: string;
}

export function summarizeElevated(config: OpenClawConfig, agentId: string): ElevatedSummary {
  const agent = findAgentTools(config, agentId);
  const own = agent?.tools.elevated as { enabled?: boolean; allowFrom?: Record<string, string[]> } | undefined;
  const enabled = config.tools?.elevated?.enabled !== false && own?.enabled !== false;
  const allowFrom: Record<string, number | "*"> = {};
  for (const [channel, list] of Object.entries(config.tools?.elevated?.allowFrom ?? {}))
    if (list.length > 0) allowFrom[channel] = list.some((entry) => String(entry).trim() === "*") ? "*" : list.length;
  return {
    enabled,
    allowFrom,
    ...(own?.allowFrom ? { narrowedBy: `${agent!.path}.elevated.allowFrom` } : {}),
    defaultLevel: config.agents.defaults.elevatedDefault ?? "on",
  };
}

/** One line for `openclaw sandbox explain`. */
export function formatElevatedSummary(summary: ElevatedSummary): string {
  if (!summary.enabled) return "elevated: off (tools.elevated.enabled or the agent's is false)";
  const channels = Object.entries(summary.allowFrom).map(([channel, count]) => `${channel} (${count === "*" ? "everyone" : `${count} ${count === 1 ? "entry" : "entries"}`})`);
  if (channels.length === 0) return "elevated: nobody (tools.elevated.allowFrom lists no sender)";
  return `elevated: ${channels.join(", ")}${summary.narrowedBy ? `, narrowed by ${summary.narrowedBy}` : ""}; their exec leaves the sandbox at the session's /elevated level (default ${summary.defaultLevel})`;
}
