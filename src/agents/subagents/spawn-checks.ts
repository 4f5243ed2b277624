import { TOOL_ERRORS, type ToolRefusal } from "../tool-errors.js";
import type { SubagentSettings } from "./subagent-config.js";

/** A refused spawn: a stable code, what is wrong, and what the model can do instead. */
export type SpawnRefusal = ToolRefusal;

const MAX_TASK_CHARS = 100_000;
const MAX_LABEL_CHARS = 200;

/**
 * A spawn's task and label, trimmed (either runtime): the task must say something and stay
 * within 100,000 characters, a label within 200.
 */
export function spawnText(args: { task: string; label?: string }): { task: string; label: string | undefined } | SpawnRefusal {
  const task = args.task.trim();
  if (!task) return TOOL_ERRORS.taskEmpty();
  if (task.length > MAX_TASK_CHARS) return TOOL_ERRORS.taskTooLong(task.length, MAX_TASK_CHARS);
  const label = args.label?.trim();
  if (label && label.length > MAX_LABEL_CHARS) return TOOL_ERRORS.labelTooLong(label.length, MAX_LABEL_CHARS);
  return { task, label };
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
  /** Why the child would not run sandboxed (its agent's sandbox mode, a missing backend); undefined when it would. */
  sandboxProblem: string | undefined;
}

/**
 * Everything that must hold before a child is created (depth, concurrency, allowlist, sandbox), in
 * that order; the first failure is reported.
 */
export function checkSpawn(input: SpawnCheckInput): SpawnRefusal | undefined {
  const { settings } = input;
  const tooDeep = depthRefusal(settings, input.requesterDepth);
  if (tooDeep) return tooDeep;
  if (input.activeChildren >= settings.maxChildrenPerAgent) {
    return TOOL_ERRORS.tooManyChildren(input.activeChildren, settings.maxChildrenPerAgent);
  }
  const target = input.targetAgentId;
  if (!input.knownAgents.includes(target)) {
    return TOOL_ERRORS.unknownAgent(target, input.knownAgents.join(", "));
  }
  const notAllowed = allowlistRefusal(input.requesterAgentId, target, settings, input.agentToAgent);
  if (notAllowed) return notAllowed;
  if (input.sandbox === "require" && input.sandboxProblem !== undefined) {
    return TOOL_ERRORS.sandboxUnavailable(input.sandboxProblem);
  }
  return undefined;
}

/** Whether a session at `requesterDepth` may spawn at all (sub-agents on, the child within maxSpawnDepth). */
export function depthRefusal(settings: Pick<SubagentSettings, "maxDepth">, requesterDepth: number): SpawnRefusal | undefined {
  const childDepth = requesterDepth + 1;
  if (settings.maxDepth === 0) return TOOL_ERRORS.subagentsDisabled();
  if (childDepth > settings.maxDepth) return TOOL_ERRORS.spawnTooDeep(requesterDepth, childDepth, settings.maxDepth);
  return undefined;
}

/**
 * Whether the requester may spawn as a configured `target`: its own id always; another only when
 * its `allowAgents` names it (or `*`) and `tools.agentToAgent.allow` lets it be reached.
 */
export function allowlistRefusal(
  requesterAgentId: string,
  target: string,
  settings: Pick<SubagentSettings, "allowAgents">,
  agentToAgent: { allows(agentId: string): boolean },
): SpawnRefusal | undefined {
  if (target === requesterAgentId) return undefined;
  if (!settings.allowAgents.includes("*") && !settings.allowAgents.includes(target)) {
    return TOOL_ERRORS.agentNotInAllowAgents(target, requesterAgentId, settings.allowAgents.join(", "));
  }
  if (!agentToAgent.allows(target)) return TOOL_ERRORS.spawnAgentNotInA2aAllow(target, requesterAgentId);
  return undefined;
}
