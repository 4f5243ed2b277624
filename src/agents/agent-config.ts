import type { AgentKeyedEntry, OpenClawConfig } from "../config/index.js";

/** The part of the config agent resolution reads; tests can pass a plain object. */
export type AgentsConfigView = {
  agents?: Partial<Pick<OpenClawConfig["agents"], "list" | "entries">> & { defaults?: Partial<OpenClawConfig["agents"]["defaults"]> };
};

/** One agent's own settings, whichever spelling (`agents.entries` or legacy `agents.list`) holds it. */
export type AgentEntry = AgentKeyedEntry;

/** One agent's settings after merging the two spellings; absent fields fall back to defaults. */
export interface AgentConfig extends Omit<AgentKeyedEntry, "id"> {
  id: string;
  isDefault: boolean;
}

/** Agent ids are case-insensitive in config keys; everything downstream uses the lower-case form. */
export function normalizeAgentId(agentId: string): string {
  return agentId.trim().toLowerCase();
}

/**
 * Agents named in config (`agents.entries` or legacy `agents.list`); `main` when none. The
 * default is the one marked `default`, else the first configured.
 */
export function listAgentConfigs(config: AgentsConfigView): readonly AgentConfig[] {
  let listed = listedAgents.get(config);
  if (!listed) listedAgents.set(config, (listed = Object.freeze(listUncached(config).map((agent) => Object.freeze(agent)))));
  return listed;
}

/**
 * The list per config object: a config is never changed once loaded (a reload makes a new one),
 * and a turn asks for its agents in several layers. Shared, so frozen.
 */
const listedAgents = new WeakMap<AgentsConfigView, readonly AgentConfig[]>();

function listUncached(config: AgentsConfigView): AgentConfig[] {
  const found: (Omit<AgentKeyedEntry, "id"> & { id: string })[] = [];
  for (const entry of config.agents?.list ?? []) found.push({ ...entry, id: normalizeAgentId(entry.id) });
  for (const [id, entry] of Object.entries(config.agents?.entries ?? {})) found.push({ ...entry, id: normalizeAgentId(id) });
  if (found.length === 0) return [{ id: "main", isDefault: true }];
  const defaultId = (found.find((a) => a.default) ?? found[0]!).id;
  return found.map((a) => ({ ...a, isDefault: a.id === defaultId }));
}

export function defaultAgentId(config: AgentsConfigView): string {
  return listAgentConfigs(config).find((a) => a.isDefault)!.id;
}

/** The entry configured for `agentId` (`entries` wins over `list`), or undefined when it runs on defaults alone. */
export function findAgentEntry(config: AgentsConfigView, agentId: string): AgentEntry | undefined {
  const id = normalizeAgentId(agentId);
  for (const [key, entry] of Object.entries(config.agents?.entries ?? {})) {
    if (normalizeAgentId(key) === id) return entry;
  }
  return config.agents?.list?.find((entry) => normalizeAgentId(entry.id) === id);
}

/** The named agent, or undefined when config does not define it (the implicit `main` always exists). */
export function resolveAgentConfig(config: AgentsConfigView, agentId: string): AgentConfig | undefined {
  const id = normalizeAgentId(agentId);
  return listAgentConfigs(config).find((a) => a.id === id);
}

/** The agent's model ref: its own `model`, else `agents.defaults.model` (string or `primary`). */
export function agentModelRef(config: AgentsConfigView, agent: AgentConfig | undefined): string | undefined {
  const pick = (m: unknown) => (typeof m === "string" ? m : (m as { primary?: string } | undefined)?.primary);
  return pick(agent?.model) ?? pick(config.agents?.defaults?.model);
}

/** The models a turn of this agent may use, before a session's own choice is applied. */
export interface AgentModelChoice {
  primary: string | undefined;
  fallbacks: string[];
}

/**
 * The agent's model and its fallbacks: its own `model` with its own `fallbacks` (none declared:
 * none used, the agent's choice is strict), else `agents.defaults.model` and its fallbacks.
 */
export function agentModelChoice(config: AgentsConfigView, agent: AgentConfig | undefined): AgentModelChoice {
  const own = agent?.model;
  if (own !== undefined) {
    return typeof own === "string" ? { primary: own, fallbacks: [] } : { primary: own.primary ?? agentModelRef(config, undefined), fallbacks: [...(own.fallbacks ?? [])] };
  }
  const defaults = config.agents?.defaults?.model;
  if (typeof defaults === "string") return { primary: defaults, fallbacks: [] };
  return { primary: defaults?.primary, fallbacks: [...(defaults?.fallbacks ?? [])] };
}
