import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeSlack, type FakeSlack } from "../../../fakes/slack-server.js";
import { createSlackHarness, type SlackHarness } from "./helpers.js";

describe("Slack Socket Mode", () => {
  let fake: FakeSlack;
  let harness: SlackHarness | undefined;

  beforeEach(async () => {
    fake = await startFakeSlack();
  });

  afterEach(async () => {
    await harness?.account.stop();
    harness = undefined;
    await fake.close();
  });

  async function startAccount(onInbound?: Parameters<typeof createSlackHarness>[2]): Promise<SlackHarness> {
    harness = createSlackHarness(fake, {}, onInbound);
    await harness.account.start();
    return harness;
  }

  it("connects, learns the bot identity and reports it", async () => {
    const { status } = await startAccount();
    expect(status).toMatchObject({ running: true, connected: true, mode: "socket", botId: fake.botUserId, botUsername: "openclaw", lastError: null });
    expect(fake.calls.map((call) => call.method)).toEqual(["auth.test", "apps.connections.open"]);
    expect(fake.unknownMethods).toEqual([]);
  });

  it("translates a DM", async () => {
    const { inbound } = await startAccount();
    const { ts } = fake.pushMessage({ channel: "D0DM1", channelType: "im", user: "U0ALICE", text: "hello there" });
    await fake.waitFor(() => inbound.length === 1);
    expect(inbound[0]).toEqual({
      messageId: ts,
      chatType: "direct",
      chatId: "D0DM1",
      senderId: "U0ALICE",
      senderName: "user-u0alice",
      senderUsername: "u0alice",
      text: "hello there",
      teamId: fake.teamId,
      timestamp: Math.round(Number.parseFloat(ts) * 1000),
    });
  });

  it("translates channel messages, mentions and thread replies", async () => {
    const { inbound } = await startAccount();
    const root = fake.pushMessage({ channel: "C0GENERAL", channelType: "channel", user: "U0ALICE", text: `<@${fake.botUserId}> what's up?` });
    fake.pushMessage({ channel: "C0GENERAL", channelType: "channel", user: "U0BOB", text: "in the thread", threadTs: root.ts });
    fake.pushMessage({ channel: "G0MPIM", channelType: "mpim", user: "U0BOB", text: "group chat" });
    await fake.waitFor(() => inbound.length === 3);

    const [mention, reply, group] = inbound;
    expect(mention).toMatchObject({ chatType: "channel", chatId: "C0GENERAL", mentionedBot: true, text: `<@${fake.botUserId}> what's up?` });
    expect(mention!.threadId).toBeUndefined();
    expect(reply).toMatchObject({ chatType: "channel", threadId: root.ts, replyTo: { messageId: root.ts }, text: "in the thread" });
    expect(reply!.mentionedBot).toBeUndefined();
    expect(group).toMatchObject({ chatType: "group", chatId: "G0MPIM" });
  });

  it("passes on one envelope when a mention arrives as both message and app_mention", async () => {
    const { inbound } = await startAccount();
    const { ts } = fake.pushMessage({ channel: "C0GENERAL", user: "U0ALICE", text: `<@${fake.botUserId}> hi`, appMention: true });
    fake.pushMessage({ channel: "C0GENERAL", channelType: "channel", user: "U0ALICE", text: `<@${fake.botUserId}> hi`, ts });
    const later = fake.pushMessage({ channel: "C0GENERAL", channelType: "channel", user: "U0ALICE", text: "next" });
    await fake.waitFor(() => inbound.some((envelope) => envelope.messageId === later.ts) && inbound.some((envelope) => envelope.messageId === ts));
    const mentions = inbound.filter((envelope) => envelope.messageId === ts);
    expect(mentions).toHaveLength(1);
    // app_mention carries no channel_type: the kind came from conversations.info.
    expect(mentions[0]).toMatchObject({ chatType: "channel", mentionedBot: true });
    expect(fake.calls.some((call) => call.method === "conversations.info")).toBe(true);
  });

  it("ignores the bot's own messages and non-message subtypes", async () => {
    const { inbound } = await startAccount();
    fake.pushEvent({ type: "message", channel: "C0GENERAL", channel_type: "channel", user: fake.botUserId, text: "my own post", ts: "1700000000.000001" });
    fake.pushEvent({ type: "message", channel: "C0GENERAL", channel_type: "channel", bot_id: fake.botId, user: "U0OTHER", text: "also mine", ts: "1700000000.000002" });
    fake.pushEvent({ type: "message", subtype: "channel_join", channel: "C0GENERAL", channel_type: "channel", user: "U0ALICE", text: "joined", ts: "1700000000.000003" });
    fake.pushEvent({ type: "message", subtype: "message_changed", channel: "C0GENERAL", channel_type: "channel", ts: "1700000000.000004" });
    fake.pushEvent({
      type: "message",
      subtype: "file_share",
      channel: "C0GENERAL",
      channel_type: "channel",
      user: "U0ALICE",
      text: "look",
      files: [{ id: "F1" }],
      ts: "1700000000.000005",
    });
    await fake.waitFor(() => inbound.length === 1 && fake.acks.size === 5);
    expect(inbound[0]).toMatchObject({ messageId: "1700000000.000005", text: "look\n<media:file>" });
  });

  it("hands over reaction_added on messages, with the chat kind and the reacting user's names looked up", async () => {
    const { reactions } = await startAccount();
    const { ts } = fake.pushMessage({ channel: "C0GENERAL", channelType: "channel", user: "U0BOB", text: "the plan" });
    fake.pushReaction({ channel: "C0GENERAL", ts, user: "U0ALICE", reaction: "tada" });
    await fake.waitFor(() => reactions.length === 1);
    expect(reactions[0]).toEqual({
      chatType: "channel",
      chatId: "C0GENERAL",
      teamId: fake.teamId,
      messageId: ts,
      onBotMessage: false,
      senderId: "U0ALICE",
      senderName: "user-u0alice",
      senderUsername: "u0alice",
      emoji: "tada",
    });
    // reaction_added has no channel_type: conversations.info said what the channel is.
    expect(fake.calls.filter((call) => call.method === "conversations.info").map((call) => call.body.channel)).toEqual(["C0GENERAL"]);
  });

  it("knows the bot's replies, and puts a reaction to one posted in a thread into that thread", async () => {
    const { account, reactions } = await startAccount();
    const root = fake.pushMessage({ channel: "C0GENERAL", channelType: "channel", user: "U0ALICE", text: `<@${fake.botUserId}> hi` });
    const inThread = await account.send({ chatId: "C0GENERAL", replyToMessageId: root.ts }, { markdown: "in the thread" });
    const topLevel = await account.send({ chatId: "D0DM1" }, { markdown: "in the DM" });
    fake.pushReaction({ channel: "C0GENERAL", ts: inThread.messageId, user: "U0ALICE", reaction: "thumbsup" });
    // Slack leaves out item_user at times: the account's memory of its sends says whose it is.
    fake.pushReaction({ channel: "D0DM1", ts: topLevel.messageId, user: "U0ALICE", reaction: "eyes", itemUser: null });
    await fake.waitFor(() => reactions.length === 2);
    const byEmoji = Object.fromEntries(reactions.map((r) => [r.emoji, r]));
    expect(byEmoji.thumbsup).toMatchObject({ chatType: "channel", chatId: "C0GENERAL", threadId: root.ts, messageId: inThread.messageId, onBotMessage: true });
    expect(byEmoji.eyes).toMatchObject({ chatType: "direct", chatId: "D0DM1", messageId: topLevel.messageId, onBotMessage: true });
    expect(byEmoji.eyes).not.toHaveProperty("threadId");
  });

  it("passes over the bot's own reactions, reactions to files, and says nothing of an unknown author", async () => {
    const { account, reactions } = await startAccount();
    const sent = await account.send({ chatId: "C0GENERAL" }, { markdown: "hello" });
    const own = fake.pushReaction({ channel: "C0GENERAL", ts: sent.messageId, user: fake.botUserId, reaction: "eyes" });
    const file = fake.pushReaction({ channel: "C0GENERAL", ts: sent.messageId, user: "U0ALICE", reaction: "eyes", itemType: "file" });
    fake.pushReaction({ channel: "C0GENERAL", ts: "1600000000.000001", user: "U0ALICE", reaction: "wave" });
    await fake.waitFor(() => reactions.length === 1 && fake.acks.has(own.envelopeId) && fake.acks.has(file.envelopeId));
    expect(reactions).toHaveLength(1);
    expect(reactions[0]).toMatchObject({ emoji: "wave", messageId: "1600000000.000001" });
    expect(reactions[0]).not.toHaveProperty("onBotMessage");
  });

  it("flags a reaction by another bot user", async () => {
    await fake.close();
    fake = await startFakeSlack({ otherBotUserIds: ["U0DEPLOYBOT"] });
    const { reactions } = await startAccount();
    fake.pushReaction({ channel: "C0GENERAL", ts: "1600000000.000001", user: "U0DEPLOYBOT", reaction: "white_check_mark" });
    await fake.waitFor(() => reactions.length === 1);
    expect(reactions[0]).toMatchObject({ senderId: "U0DEPLOYBOT", senderIsBot: true });
  });

  it("acks every envelope at once, even while the gateway is slow to take the message", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await startAccount(() => gate);
    const sentAt = Date.now();
    const envelopes = [1, 2, 3].map((n) => fake.pushMessage({ channel: "D0DM1", channelType: "im", user: "U0ALICE", text: `message ${n}` }).envelopeId);
    await fake.waitFor(() => envelopes.every((id) => fake.acks.has(id)), 2000);
    for (const id of envelopes) expect(fake.acks.get(id)! - sentAt).toBeLessThan(1000);
    release();
  });

  it("reconnects after Slack asks it to, and counts the reconnect", async () => {
    const { status, inbound } = await startAccount();
    fake.sendDisconnect();
    await fake.waitFor(() => fake.socketConnections === 2 && status.connected === true);
    expect(status.reconnectAttempts).toBe(1);
    fake.pushMessage({ channel: "D0DM1", channelType: "im", user: "U0ALICE", text: "after the reconnect" });
    await fake.waitFor(() => inbound.length === 1);
  });

  it("reconnects after the socket drops", async () => {
    const { status } = await startAccount();
    fake.dropSocket();
    await fake.waitFor(() => fake.socketConnections === 2 && status.connected === true);
    expect(status.reconnectAttempts).toBe(1);
  });

  it("stops for good on a rejected bot token, without the token in the error", async () => {
    harness = createSlackHarness(fake, { botToken: "xoxb-wrong-secret-token" });
    await expect(harness.account.start()).rejects.toThrow(/invalid_auth/);
    expect(harness.status).toMatchObject({ running: false, connected: false });
    expect(harness.status.lastError).toMatch(/bot token.*invalid_auth/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.calls.map((call) => call.method)).toEqual(["auth.test"]);
    expect(harness.logs.join("\n")).not.toContain("wrong-secret");
    expect(harness.status.lastError).not.toContain("wrong-secret");
  });

  it("stops for good on a rejected app token", async () => {
    harness = createSlackHarness(fake, { appToken: "xapp-1-wrong-secret-token" });
    await expect(harness.account.start()).rejects.toThrow(/app token.*invalid_auth/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.calls.filter((call) => call.method === "apps.connections.open")).toHaveLength(1);
    expect(harness.logs.join("\n")).not.toContain("wrong-secret");
  });

  it("refuses to start with a config problem, and says why", async () => {
    harness = createSlackHarness(fake, { appToken: undefined });
    await expect(harness.account.start()).rejects.toThrow(/app-level token/);
    expect(harness.status).toMatchObject({ running: false, connected: false, lastError: expect.stringMatching(/appToken/) });
    expect(fake.calls).toEqual([]);
  });

  it("keeps retrying while Slack is failing, then connects", async () => {
    fake.failNext("apps.connections.open", { status: 500 });
    const { status } = await startAccount();
    expect(status.lastError).toMatch(/HTTP 500/);
    await fake.waitFor(() => status.connected === true);
    expect(status.reconnectAttempts).toBe(1);
  });

  it("never logs a token, even at debug level", async () => {
    const { inbound, logs } = await startAccount();
    fake.pushMessage({ channel: "D0DM1", channelType: "im", user: "U0ALICE", text: "hi" });
    await fake.waitFor(() => inbound.length === 1);
    expect(logs.length).toBeGreaterThan(0);
    const all = logs.join("\n");
    expect(all).not.toContain(fake.botToken);
    expect(all).not.toContain(fake.appToken);
  });
});
