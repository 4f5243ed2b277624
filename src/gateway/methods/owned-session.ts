import type { ConversationPort } from "../../agents/conversation-port.js";
import { type AgentsConfigView, normalizeAgentId } from "../../agents/agent-config.js";
import { assertKnownAgent } from "../known-agent.js";
import { invalidRequest } from "../protocol/errors.js";

/**
 * The session a method names in canonical form with its agent; with `agentId`, that agent must be
 * configured and own the session (OpenClaw's rule for per-session state such as progress cards
 * and goals): an unknown or different agent is refused.
 */
export function ownedSession(config: AgentsConfigView, conversations: ConversationPort, sessionKey: string, agentId: string | undefined): { sessionKey: string; agentId: string } {
  assertKnownAgent(config, agentId);
  const resolved = conversations.resolveSessionKey(sessionKey, agentId);
  if (agentId !== undefined && normalizeAgentId(agentId) !== resolved.agentId) {
    throw invalidRequest(`session ${resolved.sessionKey} belongs to agent "${resolved.agentId}", not "${agentId}"`);
  }
  return resolved;
}
