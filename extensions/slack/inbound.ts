import type { ChannelChatKind, InboundMessage, InboundReaction } from "../../src/channels/types.js";

/** The fields of a Slack `message` / `app_mention` event this adapter reads. */
export interface SlackMessageEvent {
  type: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  parent_user_id?: string;
  team?: string;
  files?: unknown[];
  user_profile?: { display_name?: string; real_name?: string; name?: string };
}

/** Who the bot is, from `auth.test`. */
export interface BotIdentity {
  /** `user_id`: how mentions name the bot (`<@U…>`). */
  userId: string;
  /** `bot_id`: what Slack stamps on the bot's own posts. */
  botId?: string;
  /** `team_id`: the workspace the bot is installed in, the last fallback for `teamId`. */
  teamId?: string;
}

/** Subtypes that are still someone saying something; edits, joins, deletions etc. are not. */
const DELIVERED_SUBTYPES = new Set([undefined, "thread_broadcast", "file_share"]);

/** A message event that names its channel, author and ts: the ones worth translating. */
export type DeliverableEvent = SlackMessageEvent & { channel: string; user: string; ts: string };

/** Drop the bot's own posts, non-message subtypes and events missing the ids a reply needs. */
export function isDeliverable(event: SlackMessageEvent, bot: BotIdentity): event is DeliverableEvent {
  if (event.type !== "message" && event.type !== "app_mention") return false;
  if (!DELIVERED_SUBTYPES.has(event.subtype)) return false;
  if (!event.channel || !event.user || !event.ts) return false;
  if (event.user === bot.userId) return false;
  return !(bot.botId !== undefined && event.bot_id === bot.botId);
}

/** Slack's `channel_type` → the core's chat kind; `undefined` for types we do not know. */
export function chatKindOf(channelType: string | undefined): ChannelChatKind | undefined {
  switch (channelType) {
    case "im":
      return "direct";
    case "mpim":
      return "group";
    case "channel":
    case "group":
      return "channel";
    default:
      return undefined;
  }
}

export interface InboundDetails {
  bot: BotIdentity;
  /** Resolved by the caller: `app_mention` events carry no `channel_type`. */
  chatType: ChannelChatKind;
  sender?: SenderProfile;
  /** `team_id` of the event callback, used when the event itself names no team. */
  teamId?: string;
  /** The bot has posted in the message's thread (the account's memory of its posts). */
  botInThread?: boolean;
}

export function toInboundMessage(event: DeliverableEvent, details: InboundDetails): InboundMessage {
  const { bot } = details;
  // A thread root carries `thread_ts === ts` once it has replies; it is not itself "in" the thread.
  const threadId = event.thread_ts && event.thread_ts !== event.ts ? event.thread_ts : undefined;
  const envelope: InboundMessage = {
    messageId: event.ts,
    chatType: details.chatType,
    chatId: event.channel,
    senderId: event.user,
    text: messageText(event),
    timestamp: Math.round(Number.parseFloat(event.ts) * 1000),
  };
  if (threadId) {
    envelope.threadId = threadId;
    envelope.replyTo = event.parent_user_id ? { messageId: threadId, senderId: event.parent_user_id } : { messageId: threadId };
  }
  if (details.sender?.name) envelope.senderName = details.sender.name;
  if (details.sender?.username) envelope.senderUsername = details.sender.username;
  if (event.bot_id) envelope.senderIsBot = true;
  const teamId = event.team ?? details.teamId ?? bot.teamId;
  if (teamId) envelope.teamId = teamId;
  if (event.type === "app_mention" || mentionsUser(event.text ?? "", bot.userId)) envelope.mentionedBot = true;
  if (threadId && event.parent_user_id === bot.userId) envelope.replyToBot = true;
  if (threadId && details.botInThread) envelope.botInThread = true;
  return envelope;
}

export interface SenderProfile {
  /** Display name, else real name. */
  name?: string;
  /** The Slack handle (`name`). */
  username?: string;
  /** The user is a bot user (`users.info` `is_bot`). */
  isBot?: boolean;
}

/** The fields of a Slack `reaction_added` or `reaction_removed` event this adapter reads. */
export interface SlackReactionEvent {
  type: string;
  /** Who reacted. */
  user?: string;
  /** The emoji's shortcode without colons (`thumbsup`, `+1::skin-tone-2`). */
  reaction?: string;
  /** Who wrote the reacted item, when Slack says. */
  item_user?: string;
  item?: { type?: string; channel?: string; ts?: string };
  event_ts?: string;
}

/** A reaction on a message that names who reacted, with what, and where: the ones worth translating. */
export type ReportableReaction = SlackReactionEvent & { user: string; reaction: string; item: { type: "message"; channel: string; ts: string } };

/** Only reactions to messages (not files or file comments), and never the bot's own (its status reactions). */
export function isReportableReaction(event: SlackReactionEvent, bot: BotIdentity): event is ReportableReaction {
  if ((event.type !== "reaction_added" && event.type !== "reaction_removed") || !event.user || !event.reaction) return false;
  const item = event.item;
  if (item?.type !== "message" || !item.channel || !item.ts) return false;
  return event.user !== bot.userId;
}

export interface ReactionDetails {
  bot: BotIdentity;
  /** The kind of the reacted message's conversation: `reaction_added` carries no `channel_type`. */
  chatType: ChannelChatKind;
  sender?: SenderProfile;
  /** `team_id` of the event callback. */
  teamId?: string;
  /** This account posted the reacted message (in this thread, if any), as it remembers its sends. */
  sentByBot?: { threadId?: string };
}

/**
 * A reaction (or, from `reaction_removed`, its removal), in the chat a message there would name. Slack says neither which thread the reacted
 * message is in nor, always, who wrote it: a message this account remembers posting gives both
 * (its thread, and that it is the bot's); otherwise `item_user` says whose it is and the reaction
 * belongs to the channel's own session, not a thread's.
 */
export function toInboundReaction(event: ReportableReaction, details: ReactionDetails): InboundReaction {
  const { bot, sentByBot, sender } = details;
  const onBotMessage = event.item_user !== undefined ? event.item_user === bot.userId : sentByBot ? true : undefined;
  const threadId = onBotMessage ? sentByBot?.threadId : undefined;
  const teamId = details.teamId ?? bot.teamId;
  return {
    chatType: details.chatType,
    chatId: event.item.channel,
    ...(threadId ? { threadId } : {}),
    ...(teamId ? { teamId } : {}),
    messageId: event.item.ts,
    ...(onBotMessage !== undefined ? { onBotMessage } : {}),
    senderId: event.user,
    ...(sender?.name ? { senderName: sender.name } : {}),
    ...(sender?.username ? { senderUsername: sender.username } : {}),
    ...(sender?.isBot ? { senderIsBot: true } : {}),
    emoji: event.reaction,
    ...(event.type === "reaction_removed" ? { removed: true as const } : {}),
  };
}

/** The author's names when Slack embedded them in the event (`user_profile`), so no lookup is needed. */
export function profileFromEvent(event: SlackMessageEvent): SenderProfile | undefined {
  const profile = event.user_profile;
  const name = nonEmpty(profile?.display_name) ?? nonEmpty(profile?.real_name);
  return name ? { name, username: nonEmpty(profile?.name) } : undefined;
}

/** `<@U123>` or `<@U123|name>`. */
function mentionsUser(text: string, userId: string): boolean {
  return text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);
}

/** The text as Slack sent it, plus one placeholder per attached file. */
function messageText(event: SlackMessageEvent): string {
  const parts = event.text ? [event.text] : [];
  parts.push(...(event.files ?? []).map(() => "<media:file>"));
  return parts.join("\n");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}
