import { Type } from "@sinclair/typebox";
import type { ChannelManager } from "../../channels/channel-manager.js";
import { invalidRequest } from "../protocol/errors.js";
import { sendThroughChannels } from "./channel-send.js";
import type { MethodRegistry } from "./registry.js";

/**
 * Send fields OpenClaw's CLI always puts in `params` (its own flags, the routing it worked out) that
 * change nothing about the delivery here: `target`/`to` is the chat, the rest is bookkeeping.
 */
const BOOKKEEPING = new Set(["channel", "action", "target", "to", "message", "threadId", "replyTo", "accountId", "json", "dryRun", "verbose", "__sessionKey", "__agentId"]);
/** Fields that only matter with a file attached: off (false) they ask nothing. */
const MEDIA = ["media", "mediaUrl", "mediaUrls", "buffer", "filename", "contentType", "filePath", "path"];

const textOf = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value : undefined);

/** The first send field that asks for something this gateway does not do (a file, a pin, buttons…), if any. */
function unsupportedSendField(params: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(params)) {
    if (BOOKKEEPING.has(field) || value === undefined || value === null || value === false) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    return MEDIA.includes(field) ? "media" : field;
  }
  return undefined;
}

/**
 * `message.action` — how OpenClaw's own CLI (`openclaw message send`) and its tools act on a chat.
 * The `send` action delivers a text exactly as the `send` method does (one delivery, keyed by the
 * request's idempotencyKey) and answers `{ok, messageId, …}`, which the CLI prints. Any other
 * action, and a send asking for more than a text (a file, a pin, buttons), is refused by name.
 */
export function registerMessageActionMethods(registry: MethodRegistry, channels: () => ChannelManager | undefined): void {
  registry.register({
    name: "message.action",
    scope: "operator.write",
    params: Type.Object(
      {
        channel: Type.String({ minLength: 1 }),
        action: Type.String({ minLength: 1 }),
        params: Type.Record(Type.String(), Type.Unknown()),
        idempotencyKey: Type.String({ minLength: 1, maxLength: 256 }),
        accountId: Type.Optional(Type.String()),
        reply: Type.Optional(Type.Object({ replyToId: Type.Optional(Type.String()) }, { additionalProperties: true })),
      },
      { additionalProperties: true },
    ),
    handler: async (request) => {
      const channel = request.channel.toLowerCase();
      if (request.action !== "send") throw invalidRequest(`Channel ${channel} does not support action ${request.action}.`);
      const params = request.params;
      const unsupported = unsupportedSendField(params);
      if (unsupported) {
        const hint = unsupported === "media" ? " (the agent's message tool can send files)" : "";
        throw invalidRequest(`message.action send: ${unsupported} is not supported by this gateway; send the text alone${hint}`);
      }
      const to = textOf(params.target) ?? textOf(params.to);
      if (!to) throw invalidRequest("message.action send needs params.target (the chat to send to)");
      const message = textOf(params.message);
      if (!message) throw invalidRequest("message.action send needs params.message (the text to send)");
      const accountId = textOf(request.accountId) ?? textOf(params.accountId);
      const threadId = textOf(params.threadId);
      const replyToId = textOf(request.reply?.replyToId) ?? textOf(params.replyTo);
      const sent = await sendThroughChannels(channels, {
        channel,
        to,
        message,
        idempotencyKey: request.idempotencyKey,
        ...(accountId ? { accountId } : {}),
        ...(threadId ? { threadId } : {}),
        ...(replyToId ? { replyToId } : {}),
      });
      return { ok: true, ...sent, messageId: sent.messageIds.at(-1) ?? null };
    },
  });
}
