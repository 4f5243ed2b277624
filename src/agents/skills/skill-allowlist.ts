import { findAgentEntry, type AgentsConfigView } from "../agent-config.js";

/**
 * The skills an agent may be offered: its own `skills` list when it has one (it replaces the
 * default list, it does not add to it; `[]` means none), else `agents.defaults.skills`, else
 * undefined, meaning no restriction. An allowlist shapes the prompt; it is not a security boundary.
 */
export function resolveSkillAllowlist(config: AgentsConfigView, agentId: string): string[] | undefined {
  const own = findAgentEntry(config, agentId)?.skills;
  if (own) return [...own];
  const defaults = config.agents?.defaults?.skills;
  return defaults ? [...defaults] : undefined;
}
