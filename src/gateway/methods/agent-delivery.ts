import type { DeliveryTarget } from "../../channels/outbound/delivery-ledger.js";
import type { ChatDelivery } from "../operator-commands.js";
import { ErrorCodes, GatewayError, invalidRequest } from "../protocol/errors.js";
import type { AgentFinalPayload } from "./agent-final-payload.js";
import { type AgentRoutingFields, isSessionKeyTarget } from "./agent-routing.js";

/** The `agent` fields that say whether and where the reply is sent to a chat. */
export interface AgentDeliveryFields extends AgentRoutingFields {
  bestEffortDeliver?: boolean;
}

/**
 * Where `agent` with `deliver: true` sends the reply (see deliveryChat). A chat that cannot be
 * found is refused before any turn runs, unless `bestEffortDeliver: true`: then the turn runs in
 * its session only and `skipped` says why nothing is sent, as in OpenClaw.
 */
export async function agentDelivery(params: AgentDeliveryFields, sessionKey: string, delivery: ChatDelivery | undefined): Promise<{ target?: DeliveryTarget; skipped?: string }> {
  if (!params.deliver) {
    if (params.bestEffortDeliver) throw invalidRequest("bestEffortDeliver only relaxes deliver: true, and nothing is sent without it: add deliver: true or drop bestEffortDeliver");
    return {};
  }
  try {
    return { target: await deliveryChat(params, sessionKey, delivery) };
  } catch (err) {
    if (!params.bestEffortDeliver || !(err instanceof GatewayError) || err.shape.code !== ErrorCodes.INVALID_REQUEST) throw err;
    return { skipped: err.message };
  }
}

/** The final `agent` response of a run whose delivery `bestEffortDeliver` skipped: `deliveryStatus` says nothing was sent, and why. */
export function withDeliveryStatus(payload: AgentFinalPayload, skipped: string | undefined): AgentFinalPayload & { deliveryStatus?: Record<string, unknown> } {
  if (skipped === undefined) return payload;
  return { ...payload, deliveryStatus: { requested: true, attempted: false, status: "failed", succeeded: 0, resultCount: 0, error: skipped } };
}

/**
 * The chat `deliver: true` sends the reply to: the one `channel` (or `replyChannel`) and `to`
 * (or `replyTo`) name, else the chat the session last talked in, which must then be on the
 * `channel` and `accountId` named; refused when there is none.
 */
async function deliveryChat(params: AgentDeliveryFields, sessionKey: string, delivery: ChatDelivery | undefined): Promise<DeliveryTarget> {
  if (!delivery) throw invalidRequest("deliver: this gateway has no chat channels");
  const to = params.replyTo ?? (isSessionKeyTarget(params.to) ? undefined : params.to);
  const channel = params.replyChannel ?? params.channel;
  const accountId = params.replyAccountId ?? params.accountId;
  const found = to
    ? await delivery.chatTo({
        to,
        ...(channel ? { channel } : {}),
        ...(accountId ? { accountId } : {}),
        ...(params.threadId !== undefined ? { threadId: String(params.threadId) } : {}),
      })
    : delivery.chatOf(sessionKey);
  if ("refusal" in found) throw invalidRequest(`deliver: ${found.refusal}`);
  if (!to) assertSessionChatMatches(found.chat, { channel, accountId, threadId: params.threadId });
  return found.chat;
}

/** Without `to`, a `channel`, `accountId` or `threadId` must describe the session's own chat: the reply goes nowhere else. */
function assertSessionChatMatches(chat: DeliveryTarget, named: { channel?: string; accountId?: string; threadId?: string | number }): void {
  const mismatch = (
    [
      ["channel", named.channel, chat.channel],
      ["accountId", named.accountId, chat.accountId],
      ["threadId", named.threadId === undefined ? undefined : String(named.threadId), chat.threadId],
    ] as const
  ).find(([, wanted, actual]) => wanted !== undefined && wanted.toLowerCase() !== (actual ?? "").toLowerCase());
  if (mismatch) {
    const [field, wanted, actual] = mismatch;
    throw invalidRequest(`deliver: the session's chat has ${field} ${actual ?? "(none)"}, not ${wanted}; add to to name the chat on ${wanted}`);
  }
}
