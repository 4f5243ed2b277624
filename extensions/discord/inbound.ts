import { ChannelType, type APIUser, type GatewayMessageReactionAddDispatchData, type Message } from "discord.js";
import type { InboundMessage, InboundReaction } from "../../src/channels/types.js";
import { discordMedia } from "./media.js";

/** Stands in for each attachment, so the model knows something was sent it cannot see. */
const ATTACHMENT_PLACEHOLDER = "<media:attachment>";

/**
 * One gateway MESSAGE_CREATE as the pipeline's inbound message, or null for messages nobody wrote to the
 * bot: its own (Discord echoes everything the bot posts back over the gateway) and system notices
 * (joins, pins, "thread created"). Other bots are kept and flagged (`senderIsBot`): the core
 * applies `allowBots`.
 */
export function toInboundMessage(message: Message, botId: string): InboundMessage | null {
  if (message.author.id === botId || message.system) return null;
  const { channel, mentions } = message;
  const referenceId = message.reference?.messageId;
  const repliedToBot = referenceId !== undefined && mentions.repliedUser?.id === botId;
  const envelope: InboundMessage = {
    messageId: message.id,
    chatType: channel.type === ChannelType.DM ? "direct" : "channel",
    // For Discord a thread IS a channel: replies go to the thread's own id, which is also its
    // thread id. The parent channel goes in `parentChatId`.
    chatId: channel.id,
    senderId: message.author.id,
    senderName: message.member?.displayName ?? message.author.displayName,
    senderUsername: message.author.tag,
    senderIsBot: message.author.bot,
    text: [message.content, ...message.attachments.map(() => ATTACHMENT_PLACEHOLDER)].filter((part) => part !== "").join("\n"),
    // A reply that pings the bot lists it in `mentions` as well; that is `replyToBot`, not an
    // @mention written in the text, hence `ignoreRepliedUser`.
    mentionedBot: mentions.has(botId, { ignoreEveryone: true, ignoreRoles: true, ignoreRepliedUser: true }) || mentions.roles.some((role) => role.tags?.botId === botId),
    replyToBot: repliedToBot,
    timestamp: message.createdTimestamp,
  };
  if (!envelope.mentionedBot && addressedToOther(message, botId)) envelope.addressedToOther = true;
  if (message.attachments.size > 0) envelope.media = discordMedia(message.attachments.values());
  if (channel.isThread()) {
    envelope.threadId = channel.id;
    // Allowlists and bindings name the parent channel; a thread inherits them.
    if (channel.parentId) envelope.parentChatId = channel.parentId;
  }
  if (message.guildId) {
    envelope.guildId = message.guildId;
    // The member's role cache always holds @everyone (id = guild id); it is not a role anyone was given.
    envelope.memberRoleIds = [...(message.member?.roles.cache.keys() ?? [])].filter((id) => id !== message.guildId);
  }
  if (referenceId !== undefined) {
    const referenced = channel.messages.cache.get(referenceId);
    envelope.replyTo = { messageId: referenceId, body: referenced?.content, senderId: mentions.repliedUser?.id };
  }
  return envelope;
}

/** A mention of another user (not the one a reply pings) or of a role other than the bot's own, or a reply to another bot that is no webhook. */
function addressedToOther(message: Message, botId: string): boolean {
  const { mentions } = message;
  const repliedUserId = mentions.repliedUser?.id;
  if (mentions.users.some((user) => user.id !== botId && user.id !== repliedUserId)) return true;
  if (mentions.roles.some((role) => role.tags?.botId !== botId)) return true;
  if (message.reference?.messageId === undefined || !mentions.repliedUser?.bot || repliedUserId === botId) return false;
  const referenced = message.channel.messages.cache.get(message.reference.messageId);
  return !referenced?.webhookId;
}

/** What the client knows beyond a MESSAGE_REACTION_ADD payload, for `toInboundReaction`. */
export interface ReactionContext {
  /** The guild channel reacted in (a thread is a channel of its own); unused for DMs. */
  channel?: { name?: string; isThread: boolean; parentId?: string | null };
  /** The reacting user when the payload carries no member (DMs). */
  user?: { username: string; globalName: string | null; discriminator: string; bot: boolean };
  /** The author of the reacted message if the client has that message cached. */
  cachedAuthorId?: string;
}

/**
 * What a MESSAGE_REACTION_ADD or MESSAGE_REACTION_REMOVE carries that a reaction is read from; a
 * removal names neither the member nor the message's author.
 */
export type ReactionPayload = Pick<GatewayMessageReactionAddDispatchData, "user_id" | "channel_id" | "message_id" | "guild_id" | "emoji"> &
  Partial<Pick<GatewayMessageReactionAddDispatchData, "member" | "message_author_id">>;

/**
 * One MESSAGE_REACTION_ADD (or, `removed`, MESSAGE_REACTION_REMOVE) as the pipeline's reaction, placed as a message in that channel is
 * (`toInboundMessage`): a guild channel or thread is a `channel` chat keyed by its own id, a
 * thread's parent in `parentChatId`; no `guild_id` is a DM. Null for the bot's own reactions and
 * for a custom emoji Discord no longer names. `onBotMessage` comes from `message_author_id`, else
 * the cached message, else stays unknown.
 */
export function toInboundReaction(data: ReactionPayload, botId: string, known: ReactionContext, removed = false): InboundReaction | null {
  const emoji = data.emoji.name;
  if (data.user_id === botId || !emoji) return null;
  const authorId = data.message_author_id ?? known.cachedAuthorId;
  const member = data.member;
  const sender = member?.user ? apiSender(member.user, member.nick) : known.user ? userSender(known.user) : {};
  const reaction: InboundReaction = {
    chatType: data.guild_id ? "channel" : "direct",
    chatId: data.channel_id,
    messageId: data.message_id,
    ...(authorId !== undefined ? { onBotMessage: authorId === botId } : {}),
    senderId: data.user_id,
    ...sender,
    emoji,
    ...(removed ? { removed: true as const } : {}),
  };
  if (data.guild_id) {
    reaction.guildId = data.guild_id;
    // Discord never lists @everyone (id = guild id) among a member's roles; filtered as the message path does.
    if (member) reaction.memberRoleIds = member.roles.filter((id) => id !== data.guild_id);
    if (known.channel?.name) reaction.chatName = known.channel.name;
    if (known.channel?.isThread) {
      reaction.threadId = data.channel_id;
      // Allowlists and bindings name the parent channel; a thread inherits them.
      if (known.channel.parentId) reaction.parentChatId = known.channel.parentId;
    }
  }
  return reaction;
}

type SenderFields = Pick<InboundReaction, "senderName" | "senderUsername" | "senderIsBot">;

/** As discord.js names a member: nickname, else global name, else username; the tag is `name#1234`, or the bare username. */
function apiSender(user: APIUser, nick: string | null | undefined): SenderFields {
  return userSender({ username: user.username, globalName: user.global_name, discriminator: user.discriminator, bot: user.bot === true }, nick);
}

function userSender(user: NonNullable<ReactionContext["user"]>, nick?: string | null): SenderFields {
  return {
    senderName: nick || user.globalName || user.username,
    senderUsername: user.discriminator === "0" ? user.username : `${user.username}#${user.discriminator}`,
    senderIsBot: user.bot,
  };
}
