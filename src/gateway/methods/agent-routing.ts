import type { ChatDelivery } from "../operator-commands.js";
import { invalidRequest } from "../protocol/errors.js";

/** The `agent` fields that pick the session a turn runs in and the chat its reply goes to, as a client sends them. */
export interface AgentRoutingFields {
  sessionKey?: string;
  agentId?: string;
  to?: string;
  replyTo?: string;
  channel?: string;
  replyChannel?: string;
  accountId?: string;
  replyAccountId?: string;
  threadId?: string | number;
  deliver?: boolean;
  lane?: string;
  groupId?: string;
  groupChannel?: string;
  groupSpace?: string;
}

const SPAWNED_GROUP = "the group a sub-agent run acts for is recorded by the gateway that spawns it; a client request cannot set it";

/** Fields no client request may set here, and why: a request carrying one is refused before anything runs. */
const REFUSED: readonly [keyof AgentRoutingFields, string][] = [
  ["lane", "the gateway queues a run in its session's lane; cron and sub-agent runs get theirs from the gateway"],
  ["groupId", SPAWNED_GROUP],
  ["groupChannel", SPAWNED_GROUP],
  ["groupSpace", SPAWNED_GROUP],
];

/** Fields that only say where `deliver: true` sends the reply. */
const REPLY_ONLY: readonly (keyof AgentRoutingFields)[] = ["replyTo", "replyChannel", "replyAccountId"];

/** Fields that only qualify `to` (the chat it names) or the delivery. */
const CHAT_QUALIFIERS: readonly (keyof AgentRoutingFields)[] = ["channel", "accountId", "threadId"];

/** True for a `to` that is itself a session key (`agent:<id>:…`): it names that session, as in OpenClaw. */
export function isSessionKeyTarget(to: string | undefined): to is string {
  return to?.trim().toLowerCase().startsWith("agent:") === true;
}

/**
 * Refuses the routing fields that would change nothing: `lane` and `group*`, which the gateway
 * sets for the runs it starts itself; `reply*` without `deliver: true`; `channel`, `accountId`
 * and `threadId` with neither a `to` nor `deliver: true` to qualify.
 */
export function assertAgentRoutingFields(params: AgentRoutingFields): void {
  for (const [field, why] of REFUSED) {
    if (params[field] !== undefined) throw invalidRequest(`not supported: ${field} (${why})`);
  }
  if (params.deliver) return;
  for (const field of REPLY_ONLY) {
    if (params[field] !== undefined)
      throw invalidRequest(`${field} only says where deliver: true sends the reply, and nothing is sent without it: add deliver: true or drop ${field}`);
  }
  if (params.to !== undefined) return;
  for (const field of CHAT_QUALIFIERS) {
    if (params[field] !== undefined)
      throw invalidRequest(`${field} only qualifies the chat \`to\` names or the delivery: add to (the chat whose session to run in) or deliver: true, or drop ${field}`);
  }
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
