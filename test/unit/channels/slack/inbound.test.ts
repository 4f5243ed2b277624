import { describe, expect, it } from "vitest";
import { chatKindOf, isDeliverable, profileFromEvent, toInboundMessage, type BotIdentity, type DeliverableEvent } from "../../../../extensions/slack/inbound.js";

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
