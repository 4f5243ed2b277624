import type { Api } from "grammy";
import type { ReactionTypeEmoji } from "grammy/types";
import type { Logger } from "../../src/infra/logger.js";
import { InputFile } from "grammy";
import type { ChatButton, OutboundFile, OutboundTarget, OutboundText, SentMessage } from "../../src/channels/types.js";
import { ChannelPermanentError } from "../../src/channels/types.js";
import { isMessageNotModified, isNotAForum, isParseEntitiesError, toChannelError } from "./api-errors.js";
import { renderTelegramHtml } from "./render-html.js";

/** Telegram's hard limit per message; the chunker aims at 4000, rendering can add tags. */
const MAX_MESSAGE_LENGTH = 4096;
/** The General topic of a forum: Telegram refuses `message_thread_id: 1` on sends. */
const GENERAL_TOPIC = "1";
/** Telegram's limit on a forum topic name. */
const MAX_TOPIC_NAME = 128;
const TOPICS_NEED_A_FORUM = "Telegram threads are forum topics, which only forum supergroups have";

export interface OutboundDeps {
  api: Api;
  token: string;
  linkPreview: boolean;
  logger: Logger;
}

/** The text to post: Telegram HTML, or the Markdown as plain text when the HTML would be too long. */
function formatted(text: OutboundText): { text: string; html: boolean } {
  const html = renderTelegramHtml(text.markdown);
  return html.length > MAX_MESSAGE_LENGTH ? { text: text.markdown, html: false } : { text: html, html: true };
}

/**
 * Posts with `parse_mode: "HTML"`; if Telegram cannot parse the entities, posts the same chunk
 * once more as plain text rather than losing it. Errors come back as grammY raised them.
 */
async function postFormatted<T>(deps: OutboundDeps, text: OutboundText, post: (text: string, parseMode: { parse_mode?: "HTML" }) => Promise<T>): Promise<T> {
  const body = formatted(text);
  if (!body.html) return post(body.text, {});
  try {
    return await post(body.text, { parse_mode: "HTML" });
  } catch (error) {
    if (!isParseEntitiesError(error)) throw error;
    deps.logger.warn("telegram: HTML rejected (can't parse entities); resending as plain text");
    return post(text.markdown, {});
  }
}

function linkPreviewOptions(deps: OutboundDeps) {
  return deps.linkPreview ? {} : { link_preview_options: { is_disabled: true } };
}

export async function sendText(deps: OutboundDeps, target: OutboundTarget, text: OutboundText): Promise<SentMessage> {
  const options = {
    ...(target.threadId && target.threadId !== GENERAL_TOPIC ? { message_thread_id: Number(target.threadId) } : {}),
    // The quoted message may be gone by now; the reply still goes out, unquoted.
    ...(target.replyToMessageId ? { reply_parameters: { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true } } : {}),
    ...(text.silent ? { disable_notification: true } : {}),
    ...linkPreviewOptions(deps),
  };
  try {
    const sent = await postFormatted(deps, text, (body, parseMode) => deps.api.sendMessage(target.chatId, body, { ...options, ...parseMode }));
    return { messageId: String(sent.message_id) };
  } catch (error) {
    throw toChannelError(error, deps.token, "sendMessage");
  }
}

export async function editText(deps: OutboundDeps, target: OutboundTarget, messageId: string, text: OutboundText): Promise<void> {
  try {
    await postFormatted(deps, text, (body, parseMode) => deps.api.editMessageText(target.chatId, Number(messageId), body, { ...linkPreviewOptions(deps), ...parseMode }));
  } catch (error) {
    // An edit to the text already shown (preview streaming repeats itself) changed nothing: fine.
    if (isMessageNotModified(error)) return;
    throw toChannelError(error, deps.token, "editMessageText");
  }
}

/** An inline keyboard under one of the bot's messages; each button's press comes back as a callback query with its data. */
export async function setInlineKeyboard(deps: OutboundDeps, target: OutboundTarget, messageId: string, rows: readonly (readonly ChatButton[])[]): Promise<void> {
  const inline_keyboard = rows.map((row) => row.map((button) => ({ text: button.label, callback_data: button.data, ...(button.style ? { style: button.style } : {}) })));
  try {
    await deps.api.editMessageReplyMarkup(target.chatId, Number(messageId), { reply_markup: { inline_keyboard } });
  } catch (error) {
    if (isMessageNotModified(error)) return;
    throw toChannelError(error, deps.token, "editMessageReplyMarkup");
  }
}

export async function deleteMessage(deps: OutboundDeps, target: OutboundTarget, messageId: string): Promise<void> {
  try {
    await deps.api.deleteMessage(target.chatId, Number(messageId));
  } catch (error) {
    throw toChannelError(error, deps.token, "deleteMessage");
  }
}

/** In forum topics the typing indicator carries the topic, the General topic included. */
export async function sendTyping(deps: OutboundDeps, target: OutboundTarget): Promise<void> {
  try {
    await deps.api.sendChatAction(target.chatId, "typing", target.threadId ? { message_thread_id: Number(target.threadId) } : {});
  } catch (error) {
    throw toChannelError(error, deps.token, "sendChatAction");
  }
}

export async function react(deps: OutboundDeps, target: OutboundTarget, messageId: string, emoji: string): Promise<void> {
  try {
    // Telegram only takes emoji from its own reaction list; the caller picks one of those.
    await deps.api.setMessageReaction(target.chatId, Number(messageId), [{ type: "emoji", emoji: emoji as ReactionTypeEmoji["emoji"] }]);
  } catch (error) {
    throw toChannelError(error, deps.token, "setMessageReaction");
  }
}

/** An empty reaction list takes back the bot's reaction (it has at most one per message). */
export async function clearReactions(deps: OutboundDeps, target: OutboundTarget, messageId: string): Promise<void> {
  try {
    await deps.api.setMessageReaction(target.chatId, Number(messageId), []);
  } catch (error) {
    throw toChannelError(error, deps.token, "setMessageReaction");
  }
}

/** A new forum topic: Telegram's only kind of thread, so only forum supergroups can have one. */
export async function createTopic(deps: OutboundDeps, target: OutboundTarget, title: string): Promise<OutboundTarget> {
  // Private chats have positive ids; groups and channels negative ones (or an @username).
  if (/^\d+$/.test(target.chatId)) throw new ChannelPermanentError(`${TOPICS_NEED_A_FORUM}, and this is a private chat`);
  try {
    const topic = await deps.api.createForumTopic(target.chatId, title.slice(0, MAX_TOPIC_NAME));
    return { chatId: target.chatId, threadId: String(topic.message_thread_id) };
  } catch (error) {
    if (isNotAForum(error)) throw new ChannelPermanentError(`${TOPICS_NEED_A_FORUM}, and this group is not a forum (Topics are off in its settings)`);
    throw toChannelError(error, deps.token, "createForumTopic");
  }
}

/** Telegram shows these as photos; anything else goes as a document. */
const PHOTO_EXTENSIONS = /\.(jpe?g|png|gif|webp)$/i;
/** Telegram's limit on a caption. */
const MAX_CAPTION = 1024;

/** What Telegram plays as a voice message: Ogg/Opus. */
const VOICE_EXTENSIONS = /\.(ogg|oga|opus)$/i;

/**
 * `sendVoice` for speech in Ogg/Opus (a voice note), `sendPhoto` for pictures, `sendDocument` for
 * other files, uploaded from disk (multipart).
 */
export async function sendFile(deps: OutboundDeps, target: OutboundTarget, file: OutboundFile): Promise<SentMessage> {
  const options = {
    ...(target.threadId && target.threadId !== GENERAL_TOPIC ? { message_thread_id: Number(target.threadId) } : {}),
    ...(file.caption ? { caption: file.caption.slice(0, MAX_CAPTION) } : {}),
  };
  const upload = new InputFile(file.path, file.fileName);
  const method = file.voice && VOICE_EXTENSIONS.test(file.fileName) ? "sendVoice" : PHOTO_EXTENSIONS.test(file.fileName) ? "sendPhoto" : "sendDocument";
  try {
    const sent = await deps.api[method](target.chatId, upload, options);
    return { messageId: String(sent.message_id) };
  } catch (error) {
    throw toChannelError(error, deps.token, method);
  }
}
