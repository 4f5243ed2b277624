import { parseSessionKey } from "./session-key.js";

/**
 * ACP sessions (an external coding agent driven over the Agent Client Protocol) are keyed
 * `agent:<acpAgentId>:acp:<uuid>`: the agent id is the ACP agent's (`claude`, `codex` …).
 */
const SEGMENT = "acp";

export function buildAcpSessionKey(acpAgentId: string, id: string): string {
  return `agent:${acpAgentId}:${SEGMENT}:${id}`;
}

export function isAcpSessionKey(sessionKey: string): boolean {
  try {
    const rest = parseSessionKey(sessionKey).rest.split(":");
    return rest.length === 2 && rest[0] === SEGMENT && rest[1] !== "";
  } catch {
    return false;
  }
}
