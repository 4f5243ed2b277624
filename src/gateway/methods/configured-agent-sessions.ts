import { listAgentConfigs, normalizeAgentId } from "../../agents/agent-config.js";
import type { OpenClawConfig } from "../../config/index.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import type { SessionEntry } from "../../sessions/store/index.js";

/**
 * `sessions.list` with `configuredAgentsOnly`, as in OpenClaw: the store also holds sessions of
 * agents the config no longer names (their directories stay under `<state>/agents/`), and this
 * leaves those out. Configured are the config's agents (`main` when it names none) and the ACP
 * agents it names (`acp.defaultAgent`, `acp.allowedAgents` except `*`).
 */
export function configuredSessionAgents(config: OpenClawConfig): ReadonlySet<string> {
  const ids = new Set(listAgentConfigs(config).map((agent) => agent.id));
  for (const id of [config.acp?.defaultAgent, ...(config.acp?.allowedAgents ?? [])]) {
    const trimmed = id?.trim();
    if (trimmed && trimmed !== "*") ids.add(normalizeAgentId(trimmed));
  }
  return ids;
}

/** A session of a configured agent, or one a configured agent's session started (its `spawnedBy`). */
export function isConfiguredAgentSession(entry: Pick<SessionEntry, "agentId" | "spawnedBy">, configured: ReadonlySet<string>): boolean {
  if (configured.has(entry.agentId)) return true;
  if (!entry.spawnedBy) return false;
  try {
    return configured.has(parseSessionKey(entry.spawnedBy).agentId);
  } catch {
    return false;
  }
}
