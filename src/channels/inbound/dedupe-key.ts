import type { MsgContext } from "./msg-context.js";

/**
 * The identity of one inbound platform message:
 * `{provider}|{accountId}|{sessionKey}|{peerId}|{threadId}|{messageId}`, empty parts dropped.
 * Platforms redeliver (webhook retries, a poller restarted before its offset was committed,
 * a Discord RESUME replay); the same key is processed once. Null when the message has no id:
 * such a message cannot be deduplicated and is processed as it comes.
 */
export function buildInboundDedupeKey(ctx: MsgContext): string | null {
  const provider = (ctx.OriginatingChannel ?? ctx.Provider ?? ctx.Surface)?.trim().toLowerCase();
  const messageId = ctx.MessageSid?.trim();
  if (!provider || !messageId) return null;
  const peerId = resolveInboundPeerId(ctx);
  if (!peerId) return null;
  const threadId = ctx.MessageThreadId ? String(ctx.MessageThreadId) : "";
  return [provider, ctx.AccountId?.trim() ?? "", ctx.SessionKey?.trim() ?? "", peerId, threadId, messageId].filter(Boolean).join("|");
}

/** The conversation a message belongs to: the group or channel, else the sender of the DM. */
export function resolveInboundPeerId(ctx: MsgContext): string | null {
  const peer = ctx.ChatType === "direct" ? ctx.SenderId : (ctx.GroupId ?? ctx.OriginatingTo);
  return peer?.trim() || null;
}
