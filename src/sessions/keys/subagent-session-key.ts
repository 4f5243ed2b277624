import { parseSessionKey } from "./session-key.js";

/**
 * Sub-agent session keys carry their nesting: a child of a main session is
 * `agent:<agentId>:subagent:<id>`, a child of that child
 * `agent:<agentId>:subagent:<id>:subagent:<id>`. The depth is read from the key itself, so it
 * survives restarts and needs no lookup, and a key nobody spawned that merely looks like a
 * sub-agent's only ever gets the stricter treatment.
 */

const SEGMENT = "subagent";

/** 0 for a main or channel session, 1 for a child, 2 for a grandchild. Invalid keys count as 0. */
export function subagentDepth(sessionKey: string): number {
  let rest: string;
  try {
    rest = parseSessionKey(sessionKey).rest;
  } catch {
    return 0;
  }
  const parts = rest.split(":");
  let depth = 0;
  while (parts[depth * 2] === SEGMENT && parts[depth * 2 + 1]) depth += 1;
  return depth;
}

export function isSubagentSessionKey(sessionKey: string): boolean {
  return subagentDepth(sessionKey) > 0;
}

/** The child's key: under the target agent, extending the requester's chain when it is itself a sub-agent. */
export function buildSubagentSessionKey(targetAgentId: string, requesterSessionKey: string, childId: string): string {
  const depth = subagentDepth(requesterSessionKey);
  const chain =
    depth > 0
      ? `${parseSessionKey(requesterSessionKey)
          .rest.split(":")
          .slice(0, depth * 2)
          .join(":")}:`
      : "";
  return `agent:${targetAgentId}:${chain}${SEGMENT}:${childId}`;
}

/** `agent:<id>:<mainKey>`: an agent's canonical main session (the top of every sub-agent tree it starts). */
export function isMainSessionKey(sessionKey: string, mainKey: string): boolean {
  try {
    return parseSessionKey(sessionKey).rest === mainKey.trim().toLowerCase();
  } catch {
    return false;
  }
}
