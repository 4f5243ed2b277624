import type { OpenClawConfig } from "../../config/index.js";
import { agentModelRef, listAgentConfigs, normalizeAgentId } from "../agent-config.js";
import { allowlistRefusal, depthRefusal } from "./spawn-checks.js";
import { agentToAgentPolicy, resolveSubagentSettings } from "./subagent-config.js";

export interface SpawnTarget {
  id: string;
  name?: string;
  /** What a child spawned as this agent runs on when the spawn names no model. */
  model?: string;
}

export interface SpawnTargets {
  requester: string;
  /** `allowAgents` holds `*`: every configured agent `tools.agentToAgent` lets it reach. */
  allowAny: boolean;
  /** The requester's own agent first, then the others by id. */
  agents: SpawnTarget[];
  /** Why this session cannot spawn at all (sub-agents off, or it is as deep as children may go). */
  cannotSpawn?: string;
}

/**
 * The configured agents `sessions_spawn` accepts as `agentId` from this requester (the same
 * allowlist checks a spawn makes), each with the model its child would run on: the requester's
 * `subagents.model`, else the one its own parent gave it, else the target agent's model.
 */
export function spawnTargets(config: OpenClawConfig, requester: { agentId: string; depth: number; inheritedModel?: string }): SpawnTargets {
  const requesterId = normalizeAgentId(requester.agentId);
  const settings = resolveSubagentSettings(config, requesterId);
  const { inheritedModel } = requester;
  const agentToAgent = agentToAgentPolicy(config);
  const allowed = listAgentConfigs(config).filter((agent) => !allowlistRefusal(requesterId, agent.id, settings, agentToAgent));
  const ordered = [...allowed.filter((a) => a.id === requesterId), ...allowed.filter((a) => a.id !== requesterId).sort((a, b) => (a.id < b.id ? -1 : 1))];
  const tooDeep = depthRefusal(settings, requester.depth);
  return {
    requester: requesterId,
    allowAny: settings.allowAgents.includes("*"),
    agents: ordered.map((agent) => {
      const model = settings.model ?? inheritedModel ?? agentModelRef(config, agent);
      return { id: agent.id, ...(agent.name ? { name: agent.name } : {}), ...(model ? { model } : {}) };
    }),
    ...(tooDeep ? { cannotSpawn: tooDeep.message } : {}),
  };
}
