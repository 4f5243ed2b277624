import { formatKeyPath } from "../../config/key-path.js";

/**
 * Defensive readers for the tool-policy keys. The policy takes the config as `unknown` because
 * some of these keys are not in the typed schema yet, and a malformed value must never widen
 * access: anything that is not the expected shape reads as "not configured".
 */

export type ConfigRecord = Record<string, unknown>;

/** One scope's rules as written: `{ profile?, allow?, deny? }`. */
export interface PolicyBlock {
  profile?: string;
  /** Added to the profile's list (`tools.alsoAllow`, an agent's). */
  alsoAllow?: string[];
  allow?: string[];
  deny?: string[];
}

/** A policy block plus the config path it came from, for explanations. */
export interface LocatedBlock {
  path: string;
  block: PolicyBlock;
}

export function isRecord(value: unknown): value is ConfigRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readRecord(parent: unknown, key: string): ConfigRecord | undefined {
  if (!isRecord(parent)) return undefined;
  const value = parent[key];
  return isRecord(value) ? value : undefined;
}

/** Strings of an array; anything else (a bare string, a number) is ignored, not guessed at. */
export function readStringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
}

export function readPolicyBlock(value: unknown): PolicyBlock {
  if (!isRecord(value)) return {};
  const profile = typeof value.profile === "string" && value.profile.trim() ? value.profile.trim() : undefined;
  const alsoAllow = readStringList(value.alsoAllow);
  const allow = readStringList(value.allow);
  const deny = readStringList(value.deny);
  return { ...(profile ? { profile } : {}), ...(alsoAllow ? { alsoAllow } : {}), ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
}

/** `tools` at the top level of the config. */
export function readToolsConfig(config: unknown): ConfigRecord | undefined {
  return readRecord(config, "tools");
}

/**
 * The agent's own `tools` object and its path. Agent ids are lower-case by schema; compare
 * case-insensitively anyway so a hand-written "Restricted" still finds its rules. The keyed
 * spelling (`agents.entries`) is the current one and wins when both name the agent.
 */
export function findAgentTools(config: unknown, agentId: string): { path: string; tools: ConfigRecord } | undefined {
  const agents = readRecord(config, "agents");
  if (!agents) return undefined;
  const wanted = agentId.trim().toLowerCase();
  const entries = readRecord(agents, "entries");
  if (entries) {
    for (const [key, entry] of Object.entries(entries)) {
      const tools = readRecord(entry, "tools");
      if (key.toLowerCase() === wanted && tools) return { path: `${childPath("agents.entries", key)}.tools`, tools };
    }
  }
  const list = agents.list;
  if (Array.isArray(list)) {
    for (const entry of list) {
      const id = isRecord(entry) && typeof entry.id === "string" ? entry.id : undefined;
      const tools = readRecord(entry, "tools");
      if (id !== undefined && id.toLowerCase() === wanted && tools) return { path: `agents.list[${id}].tools`, tools };
    }
  }
  return undefined;
}

/** A `byX` map's entry whose key equals `key`, case-insensitively. */
export function findKeyedBlock(map: unknown, mapPath: string, key: string | undefined): LocatedBlock | undefined {
  if (!isRecord(map) || !key) return undefined;
  const wanted = key.trim().toLowerCase();
  for (const [k, value] of Object.entries(map)) {
    if (k.trim().toLowerCase() === wanted && isRecord(value)) return { path: childPath(mapPath, k), block: readPolicyBlock(value) };
  }
  return undefined;
}

/**
 * The `byProvider` entry for this model: a `provider/model` key that matches exactly wins over
 * a bare `provider` key, so one model can be singled out of a provider's policy. A model id
 * that carries its own provider prefix ("openai/gpt-5") is split when no provider was given.
 */
export function findProviderBlock(byProvider: unknown, mapPath: string, provider: string | undefined, modelId: string | undefined): LocatedBlock | undefined {
  let p = provider?.trim();
  let m = modelId?.trim();
  if (!p && m && m.includes("/")) {
    const slash = m.indexOf("/");
    p = m.slice(0, slash);
    m = m.slice(slash + 1);
  }
  if (!p) return undefined;
  return (m ? findKeyedBlock(byProvider, mapPath, `${p}/${m}`) : undefined) ?? findKeyedBlock(byProvider, mapPath, p);
}

// Same spelling as `openclaw config get/set` paths, so a path in an explanation can be pasted
// back: `tools.byProvider["openai/gpt-5"]`, `tools.byChannel.telegram`.
function childPath(parent: string, key: string): string {
  const suffix = formatKeyPath([key]);
  return suffix.startsWith("[") ? `${parent}${suffix}` : `${parent}.${suffix}`;
}
