import { Type } from "@sinclair/typebox";
import type { ChannelManager } from "../../channels/channel-manager.js";
import { invalidRequest } from "../protocol/errors.js";
import type { ChannelMessageAction } from "../../agents/types.js";
import { ChannelSendRefused } from "../../channels/send-errors.js";
import { requireChannels, sendThroughChannels } from "./channel-send.js";
import type { MethodRegistry } from "./registry.js";

/**
 * Send fields OpenClaw's CLI always puts in `params` (its own flags, the routing it worked out) that
 * change nothing about the delivery here: `target`/`to` is the chat, the rest is bookkeeping.
 */
const BOOKKEEPING = new Set(["channel", "action", "target", "to", "message", "threadId", "replyTo", "accountId", "json", "dryRun", "verbose", "__sessionKey", "__agentId"]);
/** Fields that only matter with a file attached: off (false) they ask nothing. */
const MEDIA = ["media", "mediaUrl", "mediaUrls", "buffer", "filename", "contentType", "filePath", "path"];

const textOf = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value : undefined);

/** The fields each other action reads, besides the bookkeeping (the CLI's own flags, the chat). */
const ACTION_FIELDS: Record<string, ReadonlySet<string>> = {
  react: new Set(["messageId", "emoji", "remove"]),
  edit: new Set(["messageId", "message"]),
  delete: new Set(["messageId"]),
};

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
 * `message.action` — how OpenClaw's own CLI (`openclaw message send|react|edit|delete`) and its
 * tools act on a chat. The `send` action delivers a text exactly as the `send` method does (one
 * delivery, keyed by the request's idempotencyKey) and answers `{ok, messageId, …}`, which the CLI
 * prints; `react`, `edit` and `delete` act on `params.messageId` in the chat `params.target` as the
 * agent's message tool does. Any other action, and a field none of them reads (a file, a pin,
 * buttons), is refused by name.
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
      if (ACTION_FIELDS[request.action]) return messageAction(channels, channel, request);
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

/** react, edit or delete: `{ok: true, action, channel, chatId, messageId, added|removed}`, or the reason it was refused. */
async function messageAction(
  channels: () => ChannelManager | undefined,
  channel: string,
  request: { action: string; params: Record<string, unknown>; accountId?: string },
): Promise<Record<string, unknown>> {
  const { action, params } = request;
  const extra = Object.entries(params).find(
    ([field, value]) => !ACTION_FIELDS[action]!.has(field) && !(BOOKKEEPING.has(field) && field !== "message") && value !== undefined && value !== null && value !== false,
  );
  if (extra) throw invalidRequest(`message.action ${action} does not take params.${extra[0]}`);
  const to = textOf(params.target) ?? textOf(params.to);
  if (!to) throw invalidRequest(`message.action ${action} needs params.target (the chat the message is in)`);
  const messageId = textOf(params.messageId) ?? (typeof params.messageId === "number" ? String(params.messageId) : undefined);
  if (!messageId) throw invalidRequest(`message.action ${action} needs params.messageId (the message to ${action})`);
  let what: ChannelMessageAction;
  if (action === "react") {
    if (typeof params.emoji !== "string") throw invalidRequest('message.action react needs params.emoji (the emoji to add; "" takes back the bot\'s reactions)');
    const emoji = params.emoji;
    const remove = params.remove === true;
    if (remove && !emoji) throw invalidRequest("message.action react with remove needs params.emoji (the emoji to take back)");
    what = { action, emoji, ...(remove ? { remove } : {}) };
  } else if (action === "edit") {
    const message = textOf(params.message);
    if (!message) throw invalidRequest("message.action edit needs params.message (the new text)");
    what = { action, message };
  } else what = { action: "delete" };
  const accountId = textOf(request.accountId) ?? textOf(params.accountId);
  const threadId = textOf(params.threadId);
  try {
    const done = await requireChannels(channels).act({ channel, to, messageId, action: what, ...(accountId ? { accountId } : {}), ...(threadId ? { threadId } : {}) });
    return { ok: true, ...done };
  } catch (err) {
    if (err instanceof ChannelSendRefused) throw invalidRequest(err.message);
    throw invalidRequest(`${action} failed: ${(err as Error).message}`);
  }
}
