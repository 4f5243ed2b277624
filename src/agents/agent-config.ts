import type { AgentKeyedEntry, AgentListEntry, OpenClawConfig } from "../config/index.js";

/** One agent's settings after merging the list/entries spelling; absent fields fall back to defaults. */
export interface AgentConfig extends Omit<AgentKeyedEntry, "id"> {
  id: string;
  isDefault: boolean;
}

/** Agents named in config (`agents.entries` or legacy `agents.list`); `main` when none. */
export function listAgentConfigs(config: OpenClawConfig): AgentConfig[] {
  const found: (Omit<AgentKeyedEntry, "id"> & { id: string })[] = [];
  for (const entry of (config.agents?.list ?? []) as AgentListEntry[]) found.push({ ...entry, id: entry.id.toLowerCase() });
  for (const [id, entry] of Object.entries(config.agents?.entries ?? {})) found.push({ ...entry, id: id.toLowerCase() });
  if (found.length === 0) return [{ id: "main", isDefault: true }];
  const defaultId = (found.find((a) => a.default) ?? found[0]!).id;
  return found.map((a) => ({ ...a, isDefault: a.id === defaultId }));
}

export function defaultAgentId(config: OpenClawConfig): string {
  return listAgentConfigs(config).find((a) => a.isDefault)!.id;
}

/** The named agent, or undefined when config does not define it (the implicit `main` always exists). */
export function resolveAgentConfig(config: OpenClawConfig, agentId: string): AgentConfig | undefined {
  const id = agentId.toLowerCase();
  return listAgentConfigs(config).find((a) => a.id === id);
}

/** The agent's model ref: its own `model`, else `agents.defaults.model` (string or `primary`). */
export function agentModelRef(config: OpenClawConfig, agent: AgentConfig | undefined): string | undefined {
  const pick = (m: unknown) => (typeof m === "string" ? m : (m as { primary?: string } | undefined)?.primary);
  return pick(agent?.model) ?? pick(config.agents?.defaults?.model);
}
