import { describe, expect, it } from "vitest";
import {
  chatKindOf,
  isDeliverable,
  isReportableReaction,
  profileFromEvent,
  toInboundMessage,
  toInboundReaction,
  type BotIdentity,
  type DeliverableEvent,
  type ReportableReaction,
  type SlackReactionEvent,
} from "../../../../extensions/slack/inbound.js";

const bot: BotIdentity = { userId: "U0BOT", botId: "B0BOT", teamId: "T0BOT" };

const message = (fields: Partial<DeliverableEvent> = {}): DeliverableEvent => ({
  type: "message",
  channel: "C0GENERAL",
  channel_type: "channel",
  user: "U0ALICE",
  text: "hi",
  ts: "1700000000.123456",
  ...fields,
});

describe("Slack inbound translation", () => {
  it("maps channel types to chat kinds", () => {
    expect([chatKindOf("im"), chatKindOf("mpim"), chatKindOf("channel"), chatKindOf("group"), chatKindOf(undefined)]).toEqual(["direct", "group", "channel", "channel", undefined]);
  });

  it("stamps the time from ts in epoch milliseconds", () => {
    expect(toInboundMessage(message(), { bot, chatType: "channel" }).timestamp).toBe(1_700_000_000_123);
  });

  it("detects the bot's mention in either form, and app_mention events", () => {
    expect(toInboundMessage(message({ text: "<@U0BOT> hi" }), { bot, chatType: "channel" }).mentionedBot).toBe(true);
    expect(toInboundMessage(message({ text: "<@U0BOT|openclaw> hi" }), { bot, chatType: "channel" }).mentionedBot).toBe(true);
    expect(toInboundMessage(message({ type: "app_mention", text: "hey" }), { bot, chatType: "channel" }).mentionedBot).toBe(true);
    expect(toInboundMessage(message({ text: "<@U0OTHER> hi" }), { bot, chatType: "channel" }).mentionedBot).toBeUndefined();
  });

  it("marks replies in the bot's own thread as replyToBot", () => {
    const envelope = toInboundMessage(message({ thread_ts: "1699999999.000001", parent_user_id: "U0BOT" }), { bot, chatType: "channel" });
    expect(envelope).toMatchObject({ threadId: "1699999999.000001", replyToBot: true, replyTo: { messageId: "1699999999.000001", senderId: "U0BOT" } });
    expect(toInboundMessage(message({ thread_ts: "1699999999.000001", parent_user_id: "U0ALICE" }), { bot, chatType: "channel" }).replyToBot).toBeUndefined();
  });

  it("gives a thread's root message no threadId", () => {
    const root = toInboundMessage(message({ thread_ts: "1700000000.123456" }), { bot, chatType: "channel" });
    expect(root.threadId).toBeUndefined();
  });

  it("adds one placeholder per file", () => {
    expect(toInboundMessage(message({ text: "", files: [{}, {}] }), { bot, chatType: "direct" }).text).toBe("<media:file>\n<media:file>");
  });

  it("flags other bots and takes the team from the event callback when the event has none", () => {
    const envelope = toInboundMessage(message({ bot_id: "B0OTHER" }), { bot, chatType: "channel", teamId: "T0CALLBACK" });
    expect(envelope).toMatchObject({ senderIsBot: true, teamId: "T0CALLBACK" });
    expect(toInboundMessage(message(), { bot, chatType: "channel" }).teamId).toBe("T0BOT");
    expect(toInboundMessage(message({ team: "T0EVENT" }), { bot, chatType: "channel", teamId: "T0CALLBACK" }).teamId).toBe("T0EVENT");
  });

  it("skips our own posts, edits and other subtypes, keeps shares and broadcasts", () => {
    expect(isDeliverable(message({ user: "U0BOT" }), bot)).toBe(false);
    expect(isDeliverable(message({ bot_id: "B0BOT" }), bot)).toBe(false);
    expect(isDeliverable(message({ subtype: "message_changed" }), bot)).toBe(false);
    expect(isDeliverable(message({ subtype: "bot_message" }), bot)).toBe(false);
    expect(isDeliverable(message({ subtype: "thread_broadcast" }), bot)).toBe(true);
    expect(isDeliverable(message({ subtype: "file_share" }), bot)).toBe(true);
    expect(isDeliverable({ type: "message", channel: "C1", ts: "1.2" }, bot)).toBe(false);
    expect(isDeliverable(message({ type: "reaction_added" }), bot)).toBe(false);
  });

  it("reads names Slack embedded in the event", () => {
    expect(profileFromEvent(message({ user_profile: { display_name: "", real_name: "Alice Liddell", name: "alice" } }))).toEqual({ name: "Alice Liddell", username: "alice" });
    expect(profileFromEvent(message())).toBeUndefined();
  });
});

const reaction = (fields: Partial<SlackReactionEvent> = {}): ReportableReaction =>
  ({
    type: "reaction_added",
    user: "U0ALICE",
    reaction: "thumbsup",
    item_user: "U0BOT",
    item: { type: "message", channel: "C0GENERAL", ts: "1700000000.000100" },
    event_ts: "1700000001.000200",
    ...fields,
  }) as ReportableReaction;

describe("Slack reaction translation", () => {
  it("reports reactions to messages (added or removed) only, never the bot's own", () => {
    expect(isReportableReaction(reaction(), bot)).toBe(true);
    expect(isReportableReaction(reaction({ user: "U0BOT" }), bot)).toBe(false);
    expect(isReportableReaction(reaction({ item: { type: "file", channel: "C0GENERAL", ts: "1.2" } }), bot)).toBe(false);
    expect(isReportableReaction(reaction({ item: { type: "file_comment" } }), bot)).toBe(false);
    expect(isReportableReaction(reaction({ item: { type: "message", channel: "C0GENERAL" } }), bot)).toBe(false);
    expect(isReportableReaction(reaction({ type: "reaction_removed" }), bot)).toBe(true);
    expect(isReportableReaction(reaction({ type: "message" }), bot)).toBe(false);
    expect(isReportableReaction(reaction({ user: undefined }), bot)).toBe(false);
    expect(isReportableReaction(reaction({ reaction: "" }), bot)).toBe(false);
  });

  it("marks a reaction_removed as a removal", () => {
    expect(toInboundReaction(reaction({ type: "reaction_removed" }), { bot, chatType: "channel" })).toMatchObject({ emoji: reaction().reaction, removed: true });
    expect(toInboundReaction(reaction(), { bot, chatType: "channel" })).not.toHaveProperty("removed");
  });

  it("names the chat, message, sender and shortcode as a message in that channel would", () => {
    const translated = toInboundReaction(reaction(), { bot, chatType: "channel", sender: { name: "Alice", username: "alice" }, teamId: "T0CALLBACK" });
    expect(translated).toEqual({
      chatType: "channel",
      chatId: "C0GENERAL",
      teamId: "T0CALLBACK",
      messageId: "1700000000.000100",
      onBotMessage: true,
      senderId: "U0ALICE",
      senderName: "Alice",
      senderUsername: "alice",
      emoji: "thumbsup",
    });
    // Without the callback's team, the bot's workspace.
    expect(toInboundReaction(reaction(), { bot, chatType: "direct" })).toMatchObject({ chatType: "direct", teamId: "T0BOT" });
    // A skin tone stays part of the shortcode, as Slack writes it.
    expect(toInboundReaction(reaction({ reaction: "+1::skin-tone-2" }), { bot, chatType: "channel" }).emoji).toBe("+1::skin-tone-2");
  });

  it("knows the bot's messages from item_user, else from what the account remembers sending", () => {
    expect(toInboundReaction(reaction({ item_user: "U0BOB" }), { bot, chatType: "channel" }).onBotMessage).toBe(false);
    expect(toInboundReaction(reaction({ item_user: undefined }), { bot, chatType: "channel", sentByBot: {} }).onBotMessage).toBe(true);
    expect(toInboundReaction(reaction({ item_user: undefined }), { bot, chatType: "channel" })).not.toHaveProperty("onBotMessage");
    // Slack's word wins over the memory.
    expect(toInboundReaction(reaction({ item_user: "U0BOB" }), { bot, chatType: "channel", sentByBot: {} }).onBotMessage).toBe(false);
  });

  it("puts a reaction in the thread of a message the bot posted there; any other goes to the channel", () => {
    const inThread = { threadId: "1699999999.000001" };
    expect(toInboundReaction(reaction(), { bot, chatType: "channel", sentByBot: inThread }).threadId).toBe("1699999999.000001");
    expect(toInboundReaction(reaction({ item_user: undefined }), { bot, chatType: "channel", sentByBot: inThread }).threadId).toBe("1699999999.000001");
    // The bot's message, but posted before this process started: its thread is unknown.
    expect(toInboundReaction(reaction(), { bot, chatType: "channel" })).not.toHaveProperty("threadId");
    expect(toInboundReaction(reaction(), { bot, chatType: "channel", sentByBot: {} })).not.toHaveProperty("threadId");
  });

  it("flags a bot user's reaction", () => {
    expect(toInboundReaction(reaction({ user: "U0OTHERBOT" }), { bot, chatType: "channel", sender: { name: "Deploy Bot", isBot: true } }).senderIsBot).toBe(true);
    expect(toInboundReaction(reaction(), { bot, chatType: "channel", sender: { name: "Alice" } })).not.toHaveProperty("senderIsBot");
  });
});
