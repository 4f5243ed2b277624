import type { ToolErrorCode } from "../tool-errors.js";
import type { SubagentSettings } from "./subagent-config.js";

/** A refused spawn: a stable code, what is wrong, and what the model can do instead. */
export interface SpawnRefusal {
  code: ToolErrorCode;
  message: string;
  suggestion: string;
}

export interface SpawnCheckInput {
  requesterSessionKey: string;
  requesterAgentId: string;
  /** 0 for a main session, 1 for a child. */
  requesterDepth: number;
  targetAgentId: string;
  /** Unfinished children the requester has now. */
  activeChildren: number;
  settings: SubagentSettings;
  knownAgents: readonly string[];
  agentToAgent: { allows(agentId: string): boolean };
  sandbox: "inherit" | "require";
  /** No sandbox runtime exists in this gateway yet, so every run is unsandboxed. */
  sandboxAvailable: boolean;
}

/**
 * Everything that must hold before a child is created (seed 002 "创建 subAgent": depth,
 * concurrency, allowlist, sandbox), in that order; the first failure is reported.
 */
export function checkSpawn(input: SpawnCheckInput): SpawnRefusal | undefined {
  const { settings } = input;
  const childDepth = input.requesterDepth + 1;
  if (settings.maxDepth === 0) {
    return {
      code: "SUBAGENTS_DISABLED",
      message: "Sub-agents are turned off (agents.defaults.subagents.maxSpawnDepth is 0).",
      suggestion: "Do the task yourself in this turn.",
    };
  }
  if (childDepth > settings.maxDepth) {
    return {
      code: "SPAWN_DEPTH_EXCEEDED",
      message: `sessions_spawn is not allowed at depth ${input.requesterDepth}: a child here would be at depth ${childDepth}, and the limit is ${settings.maxDepth} (agents.defaults.subagents.maxSpawnDepth).`,
      suggestion: "You are a leaf worker: do the work yourself and report the result.",
    };
  }
  if (input.activeChildren >= settings.maxChildrenPerAgent) {
    return {
      code: "TOO_MANY_CHILDREN",
      message: `This session already has ${input.activeChildren} unfinished sub-agents; the limit is ${settings.maxChildrenPerAgent} (agents.defaults.subagents.maxChildrenPerAgent).`,
      suggestion: "Wait: each result arrives as a message when that sub-agent finishes. Or kill one with the subagents tool.",
    };
  }
  const target = input.targetAgentId;
  if (!input.knownAgents.includes(target)) {
    return {
      code: "UNKNOWN_AGENT",
      message: `agentId "${target}" is not a configured agent.`,
      suggestion: `Use one of: ${input.knownAgents.join(", ")} — or leave agentId out to spawn as yourself.`,
    };
  }
  if (target !== input.requesterAgentId) {
    const allowed = settings.allowAgents.includes("*") || settings.allowAgents.includes(target);
    if (!allowed) {
      return {
        code: "AGENT_NOT_ALLOWED",
        message: `agentId is not allowed for sessions_spawn: "${target}" is not in the allowAgents of agent "${input.requesterAgentId}" (allowed: ${settings.allowAgents.join(", ")}).`,
        suggestion: `Leave agentId out to spawn as "${input.requesterAgentId}", or ask the owner to add "${target}" to agents.entries.${input.requesterAgentId}.subagents.allowAgents.`,
      };
    }
    if (!input.agentToAgent.allows(target)) {
      return {
        code: "AGENT_NOT_ALLOWED",
        message: `agentId is not allowed for sessions_spawn: "${target}" is not in tools.agentToAgent.allow.`,
        suggestion: `Leave agentId out to spawn as "${input.requesterAgentId}".`,
      };
    }
  }
  if (input.sandbox === "require" && !input.sandboxAvailable) {
    return {
      code: "SANDBOX_UNAVAILABLE",
      message: 'sandbox "require" cannot be met: this gateway runs agents without a sandbox.',
      suggestion: 'Spawn with sandbox "inherit" if the task is safe to run unsandboxed, or do not spawn it.',
    };
  }
  return undefined;
}
