import type { AgentKeyedEntry, OpenClawConfig } from "../../config/index.js";

/** The part of the config this module reads; tests can pass a plain object. */
export type AgentsConfigView = { agents?: Partial<Pick<OpenClawConfig["agents"], "list" | "entries">> & { defaults?: Partial<OpenClawConfig["agents"]["defaults"]> } };

/** One agent's own settings, whichever spelling (`agents.entries` or legacy `agents.list`) holds it. */
export type AgentEntry = AgentKeyedEntry;

/** Agent ids are case-insensitive in config keys; everything downstream uses the lower-case form. */
export function normalizeAgentId(agentId: string): string {
  return agentId.trim().toLowerCase();
}

/** The entry configured for `agentId`, or undefined when the agent runs on the defaults alone. */
export function findAgentEntry(config: AgentsConfigView, agentId: string): AgentEntry | undefined {
  const id = normalizeAgentId(agentId);
  for (const [key, entry] of Object.entries(config.agents?.entries ?? {})) {
    if (normalizeAgentId(key) === id) return entry;
  }
  return config.agents?.list?.find((entry) => normalizeAgentId(entry.id) === id);
}

/**
 * The agent that unrouted messages reach: the one marked `default`, else the first configured,
 * else `main`. Same rule as the gateway's health snapshot; repeated here so the agent runtime
 * does not depend on gateway code.
 */
export function resolveDefaultAgentId(config: AgentsConfigView): string {
  const ids: { id: string; isDefault: boolean }[] = [];
  for (const entry of config.agents?.list ?? []) ids.push({ id: normalizeAgentId(entry.id), isDefault: entry.default === true });
  for (const [key, entry] of Object.entries(config.agents?.entries ?? {})) {
    ids.push({ id: normalizeAgentId(key), isDefault: entry?.default === true });
  }
  return (ids.find((a) => a.isDefault) ?? ids[0])?.id ?? "main";
}
