import type { FinalizedInbound } from "./finalize-inbound.js";

/**
 * The identity of one inbound platform message:
 * `{provider}|{accountId}|{sessionKey}|{peerId}|{threadId}|{messageId}`, empty parts dropped.
 * Platforms redeliver (webhook retries, a poller restarted before its offset was committed,
 * a Discord RESUME replay); the same key is processed once. Null when the message has no id:
 * such a message cannot be deduplicated and is processed as it comes.
 */
export function buildInboundDedupeKey(message: FinalizedInbound): string | null {
  const provider = message.channel.trim().toLowerCase();
  const messageId = message.messageId.trim();
  if (!provider || !messageId) return null;
  const peerId = resolveInboundPeerId(message);
  if (!peerId) return null;
  return [provider, message.accountId.trim(), message.sessionKey.trim(), peerId, message.threadId ?? "", messageId].filter(Boolean).join("|");
}

/** The conversation a message belongs to: the group or channel, else the sender of the DM. */
export function resolveInboundPeerId(message: FinalizedInbound): string | null {
  const peer = message.chatType === "direct" ? message.senderId : message.chatId;
  return peer.trim() || null;
}
