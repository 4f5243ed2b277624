import { runReplyText, type ConversationPort, type ConversationRun } from "../../agents/conversation-port.js";
import type { LocatedToolRule } from "../../agents/policy/index.js";
import type { Logger } from "../../infra/logger.js";
import type { FinalizedInbound } from "../inbound/finalize-inbound.js";
import type { DeliveryTarget } from "../outbound/delivery-ledger.js";
import type { ReplyDelivery } from "../outbound/reply-delivery.js";
import { isSubstantiveReply, STRANDED_REPLY_NOTICE, strandedReplyRetryPrompt } from "./visible-replies.js";

/** The turn whose reply may be stranded: the message it answered and where its chat is. */
export interface AnsweredTurn {
  runId: string;
  agentId: string;
  target: DeliveryTarget;
  message: FinalizedInbound;
  chatTools?: LocatedToolRule;
  senderTools?: LocatedToolRule;
}

/**
 * A run that was to answer through the `message` tool (`visibleReplies: message_tool`) but ended
 * with a substantive final text and sent nothing to the chat gets one retry, with only that tool,
 * asked to deliver the same text; when the retry sends nothing either, the chat is told the reply
 * could not be delivered. A short final text stays private (logged).
 */
export async function retryStrandedReply(
  deps: { conversations: ConversationPort; delivery: ReplyDelivery; logger: Logger },
  turn: AnsweredTurn,
  record: ConversationRun,
): Promise<void> {
  if (record.status !== "ok" || !record.result?.privateFinal) return;
  const { sessionKey } = turn.message;
  const finalText = runReplyText(record).trim();
  const log = { channel: turn.target.channel, chatId: turn.target.chatId, sessionKey, chars: finalText.length };
  if (!finalText || deps.delivery.sentByToolSince(sessionKey, turn.target, record.startedAt ?? record.acceptedAt)) return;
  if (!isSubstantiveReply(finalText)) {
    deps.logger.info(log, "short final text kept private: the agent did not send it with the message tool");
    return;
  }
  deps.logger.warn(log, "the agent wrote a long final reply without sending it with the message tool (visibleReplies: message_tool); retrying once");
  const outcome = await deps.conversations.submit({
    message: strandedReplyRetryPrompt(finalText),
    idempotencyKey: `${turn.runId}:stranded-retry`,
    sessionKey,
    agentId: turn.agentId,
    method: "channel",
    senderIsOwner: turn.message.commandAuthorized,
    internal: {},
    provenance: { kind: "internal_system", method: "channel", sourceTool: "stranded_reply_retry" },
    turnSettings: {
      replyVia: "message_tool_only",
      runToolAllow: { source: "stranded reply retry", entries: ["message"] },
      ...(turn.chatTools ? { chatTools: turn.chatTools } : {}),
      ...(turn.senderTools ? { senderTools: turn.senderTools } : {}),
    },
  });
  if (outcome.kind !== "accepted") return;
  const retried = await outcome.run.done;
  if (deps.delivery.sentByToolSince(sessionKey, turn.target, retried.startedAt ?? retried.acceptedAt)) return;
  deps.logger.warn(log, "the retry did not send the reply either; the chat is told it could not be delivered");
  await deps.delivery.queueText(`${turn.runId}:stranded`, turn.target, STRANDED_REPLY_NOTICE);
}
