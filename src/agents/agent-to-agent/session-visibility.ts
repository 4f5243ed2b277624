import type { OpenClawConfig } from "../../config/index.js";
import { isMainSessionKey, parseSessionKey, subagentDepth } from "../../sessions/keys/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import type { SpawnRefusal } from "../subagents/spawn-checks.js";
import { agentToAgentPolicy } from "../subagents/subagent-config.js";

export type SessionVisibility = "self" | "tree" | "agent" | "all";

export interface VisibilityContext {
  config: OpenClawConfig;
  /** True when `target` is in the tree of sessions `caller` spawned (children, grandchildren). */
  spawnedBy(caller: string, target: string): boolean;
}

/**
 * Which sessions the session tools may see (`tools.sessions.visibility`, see docs/subagents.md):
 * `self`; `tree` (default): the caller and what it spawned, and an agent's main session sees
 * every session of its agent; `agent`; `all`. Reaching another agent's sessions also needs
 * `tools.agentToAgent.enabled` (and its `allow` list) — except for a child the caller spawned
 * itself. Sub-agents never see beyond their own tree.
 */
export function checkSessionVisible(ctx: VisibilityContext, caller: string, target: string): SpawnRefusal | undefined {
  if (caller === target) return undefined;
  if (ctx.spawnedBy(caller, target)) return undefined;
  const configured = (ctx.config.tools?.sessions?.visibility ?? "tree") as SessionVisibility;
  const visibility: SessionVisibility = subagentDepth(caller) > 0 && configured !== "self" ? "tree" : configured;
  const callerAgent = parseSessionKey(caller).agentId;
  const targetAgent = parseSessionKey(target).agentId;
  if (callerAgent !== targetAgent) {
    const a2a = agentToAgentPolicy(ctx.config);
    if (visibility !== "all" || !a2a.enabled) {
      return TOOL_ERRORS.otherAgentHidden(target, targetAgent);
    }
    if (!a2a.allows(targetAgent) || !a2a.allows(callerAgent)) {
      return TOOL_ERRORS.agentNotInA2aAllow(targetAgent);
    }
    return undefined;
  }
  switch (visibility) {
    case "all":
    case "agent":
      return undefined;
    case "tree":
      if (isMainSessionKey(caller, ctx.config.session.mainKey)) return undefined;
      return TOOL_ERRORS.outsideTree(target);
    case "self":
      return TOOL_ERRORS.selfOnly();
  }
}
