import type { OpenClawConfig } from "../../config/index.js";
import { findAgentEntry, listAgentConfigs, normalizeAgentId } from "../agent-config.js";
import { effectiveMaxSpawnDepth } from "../policy/subagent-tool-limits.js";

/** The sub-agent settings that apply to one requesting agent, defaults filled in (see docs/configuration.md, `agents`). */
export interface SubagentSettings {
  /** 0 (no sub-agents), 1 or 2: the deepest level that may exist. */
  maxDepth: number;
  maxChildrenPerAgent: number;
  maxConcurrent: number;
  /** Agent ids this agent may spawn as, its own included; `*` = any configured agent. */
  allowAgents: string[];
  runTimeoutSeconds: number;
  archiveAfterMinutes: number;
  model?: string;
  thinking?: string;
}

export const DEFAULT_MAX_CHILDREN_PER_AGENT = 5;
export const DEFAULT_SUBAGENT_MAX_CONCURRENT = 8;
export const DEFAULT_ARCHIVE_AFTER_MINUTES = 60;
export const DEFAULT_MAX_PING_PONG_TURNS = 5;

export function resolveSubagentSettings(config: OpenClawConfig, requesterAgentId: string): SubagentSettings {
  const defaults = config.agents.defaults.subagents ?? {};
  const own = findAgentEntry(config, requesterAgentId)?.subagents ?? {};
  const self = normalizeAgentId(requesterAgentId);
  const allow = (own.allowAgents ?? defaults.allowAgents ?? []).map(normalizeAgentId);
  const model = own.model ?? defaults.model;
  const thinking = own.thinking ?? defaults.thinking;
  return {
    maxDepth: effectiveMaxSpawnDepth(defaults.maxSpawnDepth),
    maxChildrenPerAgent: defaults.maxChildrenPerAgent ?? DEFAULT_MAX_CHILDREN_PER_AGENT,
    maxConcurrent: subagentMaxConcurrent(config),
    allowAgents: allow.includes(self) ? allow : [self, ...allow],
    runTimeoutSeconds: defaults.runTimeoutSeconds ?? 0,
    archiveAfterMinutes: defaults.archiveAfterMinutes ?? DEFAULT_ARCHIVE_AFTER_MINUTES,
    ...(model ? { model } : {}),
    ...(thinking ? { thinking } : {}),
  };
}

/** The `subagent` lane's cap. */
export function subagentMaxConcurrent(config: OpenClawConfig): number {
  return config.agents.defaults.subagents?.maxConcurrent ?? DEFAULT_SUBAGENT_MAX_CONCURRENT;
}

export function maxPingPongTurns(config: OpenClawConfig): number {
  return config.session.agentToAgent?.maxPingPongTurns ?? DEFAULT_MAX_PING_PONG_TURNS;
}

/** Agent ids the config defines (the implicit `main` when none). */
export function configuredAgentIds(config: OpenClawConfig): string[] {
  return listAgentConfigs(config).map((a) => a.id);
}

/** `tools.agentToAgent`, read as: cross-agent session tools on or off, and the agents they may reach. */
export function agentToAgentPolicy(config: OpenClawConfig): { enabled: boolean; allows(agentId: string): boolean } {
  const a2a = config.tools?.agentToAgent;
  const allow = a2a?.allow?.map(normalizeAgentId);
  return {
    enabled: a2a?.enabled === true,
    allows: (agentId) => !allow || allow.includes("*") || allow.includes(normalizeAgentId(agentId)),
  };
}
