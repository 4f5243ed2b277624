import type { ChatDelivery } from "../operator-commands.js";
import { invalidRequest } from "../protocol/errors.js";

/** The `agent` fields that pick the session a turn runs in, as a client sends them. */
export interface AgentRoutingFields {
  sessionKey?: string;
  agentId?: string;
  to?: string;
  channel?: string;
  accountId?: string;
  threadId?: string | number;
}

/** True for a `to` that is itself a session key (`agent:<id>:…`): it names that session, as in OpenClaw. */
export function isSessionKeyTarget(to: string | undefined): to is string {
  return to?.trim().toLowerCase().startsWith("agent:") === true;
}

/**
 * The session the turn runs in, before the agent's main session: `sessionKey` wins; else a `to`
 * that is a session key; else the session the chat `to` names uses for its messages (its peer
 * keyed under `session.dmScope`, as the channel's own messages are); else undefined (the main session).
 */
export async function agentSessionKey(params: AgentRoutingFields, delivery: ChatDelivery | undefined): Promise<string | undefined> {
  if (params.sessionKey !== undefined) return params.sessionKey;
  if (params.to === undefined) return undefined;
  if (isSessionKeyTarget(params.to)) return params.to.trim();
  if (!delivery) throw invalidRequest("to: this gateway has no chat channels; name the session with sessionKey");
  const found = await delivery.sessionTo({
    to: params.to,
    ...(params.channel ? { channel: params.channel } : {}),
    ...(params.accountId ? { accountId: params.accountId } : {}),
    ...(params.threadId !== undefined ? { threadId: String(params.threadId) } : {}),
    ...(params.agentId ? { agentId: params.agentId } : {}),
  });
  if ("refusal" in found) throw invalidRequest(`to: ${found.refusal}`);
  return found.sessionKey;
}
