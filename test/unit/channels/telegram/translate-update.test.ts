import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { translateUpdate } from "../../../../extensions/telegram/inbound.js";

const bot = { id: 900, username: "Clawd_bot" };
const chat = { id: -100777, type: "supergroup", title: "Team" };
const from = { id: 5, is_bot: false, first_name: "Ada", last_name: "Lovelace", username: "ada" };

function message(fields: Record<string, unknown>): Update {
  return { update_id: 1, message: { message_id: 3, date: 1_700_000_000, chat, from, ...fields } } as unknown as Update;
}

describe("translateUpdate", () => {
  it("joins first and last name and keeps the username", () => {
    expect(translateUpdate(message({ text: "hi" }), bot)).toEqual({
      messageId: "3",
      chatType: "group",
      chatId: "-100777",
      senderId: "5",
      senderName: "Ada Lovelace",
      senderUsername: "ada",
      text: "hi",
      timestamp: 1_700_000_000_000,
    });
  });

  it("maps basic groups and channels", () => {
    const group = { update_id: 1, message: { message_id: 3, date: 1, chat: { id: -5, type: "group", title: "g" }, from, text: "x" } } as unknown as Update;
    const channel = { update_id: 1, message: { message_id: 3, date: 1, chat: { id: -1001, type: "channel", title: "c" }, from, text: "x" } } as unknown as Update;
    expect(translateUpdate(group, bot)?.chatType).toBe("group");
    expect(translateUpdate(channel, bot)?.chatType).toBe("channel");
  });

  it("treats edited messages as inbound", () => {
    const update = { update_id: 2, edited_message: { message_id: 3, date: 1, edit_date: 2, chat, from, text: "fixed" } } as unknown as Update;
    expect(translateUpdate(update, bot)).toMatchObject({ messageId: "3", text: "fixed" });
  });

  it("uses the caption, else a media placeholder", () => {
    expect(translateUpdate(message({ photo: [{ file_id: "p" }], caption: "look" }), bot)?.text).toBe("look");
    expect(translateUpdate(message({ photo: [{ file_id: "p" }] }), bot)?.text).toBe("<media:photo>");
    expect(translateUpdate(message({ sticker: { file_id: "s" } }), bot)?.text).toBe("<media:sticker>");
    expect(translateUpdate(message({ document: { file_id: "d" } }), bot)?.text).toBe("<media:document>");
    expect(translateUpdate(message({ voice: { file_id: "v" } }), bot)?.text).toBe("<media:voice>");
  });

  it("ignores service messages and update kinds it does not handle", () => {
    expect(translateUpdate(message({ new_chat_members: [from] }), bot)).toBeUndefined();
    expect(translateUpdate({ update_id: 1, inline_query: { id: "q", from, query: "x", offset: "" } } as unknown as Update, bot)).toBeUndefined();
  });

  it("sees a /command addressed to the bot, a text mention, and a mention in a caption", () => {
    const command = message({ text: "/status@clawd_bot", entities: [{ type: "bot_command", offset: 0, length: 17 }] });
    const otherBot = message({ text: "/status@other_bot", entities: [{ type: "bot_command", offset: 0, length: 17 }] });
    const textMention = message({ text: "Clawd, hi", entities: [{ type: "text_mention", offset: 0, length: 5, user: { id: 900, is_bot: true, first_name: "Clawd" } }] });
    const caption = message({ photo: [{ file_id: "p" }], caption: "@Clawd_bot see", caption_entities: [{ type: "mention", offset: 0, length: 10 }] });
    expect(translateUpdate(command, bot)?.mentionedBot).toBe(true);
    expect(translateUpdate(otherBot, bot)?.mentionedBot).toBeUndefined();
    expect(translateUpdate(textMention, bot)?.mentionedBot).toBe(true);
    expect(translateUpdate(caption, bot)?.mentionedBot).toBe(true);
  });

  it("does not report a topic's opening message as a reply", () => {
    const inTopic = message({
      text: "hi",
      message_thread_id: 40,
      is_topic_message: true,
      reply_to_message: { message_id: 40, date: 1, chat, from, forum_topic_created: { name: "T", icon_color: 1 } },
    });
    const envelope = translateUpdate(inTopic, bot);
    expect(envelope?.threadId).toBe("40");
    expect(envelope?.replyTo).toBeUndefined();
  });

  it("ignores message_thread_id outside forum topics", () => {
    expect(translateUpdate(message({ text: "hi", message_thread_id: 40 }), bot)?.threadId).toBeUndefined();
  });

  it("stands the sender chat in for an anonymous sender and marks bots", () => {
    const anonymous = {
      update_id: 1,
      message: { message_id: 3, date: 1, chat, sender_chat: { id: -100777, type: "supergroup", title: "Team" }, text: "admin here" },
    } as unknown as Update;
    expect(translateUpdate(anonymous, bot)).toMatchObject({ senderId: "-100777", senderName: "Team" });
    expect(translateUpdate(message({ text: "beep", from: { id: 6, is_bot: true, first_name: "Other" } }), bot)?.senderIsBot).toBe(true);
  });

  it("turns an inline button press into callback_data text in the button's chat and topic", () => {
    const update = {
      update_id: 9,
      callback_query: {
        id: "cb1",
        from,
        chat_instance: "ci",
        data: "approve:42",
        message: { message_id: 70, date: 1, chat, from: { id: 900, is_bot: true, first_name: "Clawd" }, message_thread_id: 12, is_topic_message: true, text: "Approve?" },
      },
    } as unknown as Update;
    expect(translateUpdate(update, bot)).toEqual({
      messageId: "callback:cb1",
      chatType: "group",
      chatId: "-100777",
      threadId: "12",
      senderId: "5",
      senderName: "Ada Lovelace",
      senderUsername: "ada",
      text: "callback_data: approve:42",
      replyToBot: true,
      timestamp: expect.any(Number),
    });
  });

  it("an exec approval button's press is its /approve line, as if typed; other data stays callback_data", () => {
    const press = (data: string) =>
      translateUpdate(
        { update_id: 10, callback_query: { id: "cb2", from, chat_instance: "ci", data, message: { message_id: 71, date: 1, chat, text: "🔐" } } } as unknown as Update,
        bot,
      )?.text;
    expect(press("/approve 0b6e1c2a-1d2e-4f3a-9b8c-7d6e5f4a3b2c allow-always")).toBe("/approve 0b6e1c2a-1d2e-4f3a-9b8c-7d6e5f4a3b2c allow-always");
    expect(press("/approve abc maybe")).toBe("callback_data: /approve abc maybe");
    expect(press("/reset")).toBe("callback_data: /reset");
  });
});
