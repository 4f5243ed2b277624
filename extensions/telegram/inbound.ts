import type { CallbackQuery, Chat, Message, MessageEntity, MessageReactionUpdated, Update, User } from "grammy/types";
import type { ChannelChatKind, InboundMessage, InboundReaction } from "../../src/channels/types.js";
import { isCommandButton } from "../../src/agents/command-buttons.js";

/** Who the bot is, from `getMe`: needed to see mentions of it and replies to it. */
export interface BotIdentity {
  id: number;
  username: string;
}

/** The update kinds the plugin asks for (`allowed_updates`) and translates. */
export const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "message_reaction"] as const;

/** Media kinds in the order they are checked; the first present one names the placeholder. */
const MEDIA_KINDS = ["photo", "video", "animation", "video_note", "voice", "audio", "document", "sticker", "location", "venue", "contact", "poll", "dice"] as const;

/**
 * One Telegram update as an inbound message, or undefined for updates that are not messages to
 * the agent (service messages such as members joining, other update kinds).
 */
export function translateUpdate(update: Update, bot: BotIdentity): InboundMessage | undefined {
  const message = update.message ?? update.edited_message;
  if (message) return translateMessage(message, bot);
  if (update.callback_query) return translateCallback(update.callback_query, bot);
  return undefined;
}

/**
 * The emoji a `message_reaction` update adds, then those it removes (`removed`), each as a
 * reaction by its user (custom emoji and paid stars are not reported). `sentByBot` says whether the bot posted
 * the message and in which topic: the update carries neither. An anonymous reaction (an admin
 * posting as the chat) has no user and is not reported; neither is one in a forum on a message
 * whose topic is unknown, which would otherwise land in the group's own session.
 */
export function translateReaction(update: MessageReactionUpdated, sentByBot: { threadId?: string } | undefined): InboundReaction[] {
  const user = update.user;
  if (!user) return [];
  const emojiOf = (list: MessageReactionUpdated["old_reaction"]) => new Set(list.flatMap((r) => (r.type === "emoji" ? [r.emoji] : [])));
  const before = emojiOf(update.old_reaction);
  const after = emojiOf(update.new_reaction);
  const changes = [
    ...[...after].filter((e) => !before.has(e)).map((emoji) => ({ emoji })),
    ...[...before].filter((e) => !after.has(e)).map((emoji) => ({ emoji, removed: true as const })),
  ];
  const forum = update.chat.type === "supergroup" && update.chat.is_forum === true;
  if (changes.length === 0 || (forum && !sentByBot?.threadId)) return [];
  const from = sender(user);
  return changes.map(({ emoji, ...removed }) => ({
    chatType: chatKind(update.chat),
    chatId: String(update.chat.id),
    ...(forum && sentByBot?.threadId ? { threadId: sentByBot.threadId } : {}),
    messageId: String(update.message_id),
    onBotMessage: sentByBot !== undefined,
    senderId: from.senderId,
    ...(from.senderName ? { senderName: from.senderName } : {}),
    ...(from.senderUsername ? { senderUsername: from.senderUsername } : {}),
    ...(from.senderIsBot ? { senderIsBot: true } : {}),
    emoji,
    ...removed,
  }));
}

/**
 * An inline button press reaches the agent as text; the press itself is the message. A command
 * button's press is that command, as if its user had typed it (and authorized as that).
 */
function translateCallback(callback: CallbackQuery, bot: BotIdentity): InboundMessage | undefined {
  const anchor = callback.message;
  if (callback.data === undefined || !anchor) return undefined;
  // An old message Telegram no longer shows the bot has `date: 0` and nothing but its chat and id.
  const accessible = anchor.date === 0 ? undefined : (anchor as Message);
  return {
    messageId: `callback:${callback.id}`,
    chatType: chatKind(anchor.chat),
    chatId: String(anchor.chat.id),
    ...(accessible ? topicOf(accessible) : {}),
    ...sender(callback.from),
    text: isCommandButton(callback.data) ? callback.data : `callback_data: ${callback.data}`,
    ...(accessible?.from?.id === bot.id ? { replyToBot: true } : {}),
    timestamp: Date.now(),
  };
}

function translateMessage(message: Message, bot: BotIdentity): InboundMessage | undefined {
  const text = messageText(message);
  const from = message.from ?? senderChatAsUser(message.sender_chat);
  if (text === undefined || !from) return undefined;
  const envelope: InboundMessage = {
    messageId: String(message.message_id),
    chatType: chatKind(message.chat),
    chatId: String(message.chat.id),
    ...topicOf(message),
    ...sender(from),
    text,
    timestamp: message.date * 1000,
  };
  if (mentionsBot(message, bot)) envelope.mentionedBot = true;
  const reply = realReply(message);
  if (reply) {
    const body = messageText(reply);
    envelope.replyTo = { messageId: String(reply.message_id), ...(body !== undefined ? { body } : {}), ...(reply.from ? { senderId: String(reply.from.id) } : {}) };
    if (reply.from?.id === bot.id) envelope.replyToBot = true;
  }
  return envelope;
}

/** `text ?? caption ?? <media:kind>`; undefined for service messages. */
function messageText(message: Message): string | undefined {
  if (message.text !== undefined) return message.text;
  if (message.caption !== undefined) return message.caption;
  const kind = MEDIA_KINDS.find((key) => message[key] !== undefined);
  return kind ? `<media:${kind}>` : undefined;
}

/** How a Telegram chat type reads as a chat kind: a private chat is a DM, a supergroup is a group. */
export function chatKind(chat: Pick<Chat, "type">): ChannelChatKind {
  switch (chat.type) {
    case "private":
      return "direct";
    case "channel":
      return "channel";
    default:
      return "group";
  }
}

/** Only forum topics give a thread: in other chats `message_thread_id` is just a reply chain. */
function topicOf(message: Message): { threadId?: string } {
  return message.is_topic_message && message.message_thread_id !== undefined ? { threadId: String(message.message_thread_id) } : {};
}

function sender(user: User): Pick<InboundMessage, "senderId" | "senderName" | "senderUsername" | "senderIsBot"> {
  const name = [user.first_name, user.last_name].filter(Boolean).join(" ");
  return {
    senderId: String(user.id),
    ...(name ? { senderName: name } : {}),
    ...(user.username ? { senderUsername: user.username } : {}),
    ...(user.is_bot ? { senderIsBot: true } : {}),
  };
}

/** Anonymous admins and linked channels post as a chat; the chat then stands in for the sender. */
function senderChatAsUser(chat: Chat | undefined): User | undefined {
  if (!chat) return undefined;
  return {
    id: chat.id,
    is_bot: false,
    first_name: "title" in chat && chat.title ? chat.title : String(chat.id),
    ...("username" in chat && chat.username ? { username: chat.username } : {}),
  };
}

/**
 * In a forum topic every message "replies" to the topic's opening service message; that is not
 * a reply anyone wrote, so it is not reported as one.
 */
function realReply(message: Message): Message | undefined {
  const reply = message.reply_to_message;
  if (!reply) return undefined;
  if (message.is_topic_message && (reply.forum_topic_created !== undefined || reply.message_id === message.message_thread_id)) return undefined;
  return reply;
}

/** `@botname`, a text mention of the bot's user, or `/command@botname`. */
function mentionsBot(message: Message, bot: BotIdentity): boolean {
  const text = message.text ?? message.caption ?? "";
  const entities: MessageEntity[] = message.entities ?? message.caption_entities ?? [];
  const handle = `@${bot.username}`.toLowerCase();
  return entities.some((entity) => {
    const covered = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    switch (entity.type) {
      case "mention":
        return covered === handle;
      case "text_mention":
        return entity.user.id === bot.id;
      case "bot_command":
        return covered.endsWith(handle);
      default:
        return false;
    }
  });
}
