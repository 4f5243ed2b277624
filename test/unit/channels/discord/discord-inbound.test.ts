import { GatewayIntentBits } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../../fakes/discord-server.js";
import { BOT_ID, BOT_ROLE_ID, envelopeFor, GENERAL_ID, GUILD_ID, MOD_ROLE_ID, startAccount, THREAD_ID, type Running } from "./harness.js";

describe("discord plugin: login and inbound messages", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.cleanup();
    running = undefined;
  });

  it("logs in through GET /gateway/bot and the gateway, then reports connected with the bot's identity", async () => {
    running = await startAccount();
    const { fake, stub } = running;
    expect(stub.status).toMatchObject({ mode: "gateway", connected: true, botId: BOT_ID, botUsername: "fakebot", reconnectAttempts: 0 });
    expect(stub.status.lastConnectedAt).toEqual(expect.any(Number));
    expect(fake.identifyCount).toBe(1);
    const intents = fake.lastIdentifyIntents!;
    for (const bit of [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent])
      expect(intents & bit).toBe(bit);
    expect(fake.sent.map((r) => `${r.method} ${r.path}`)).toContain("GET /gateway/bot");
    expect(fake.unhandledRoutes).toEqual([]);
  });

  it("leaves the privileged Message Content intent out when intents.messageContent is false", async () => {
    running = await startAccount({ config: { intents: { messageContent: false } } });
    expect(running.fake.lastIdentifyIntents! & GatewayIntentBits.MessageContent).toBe(0);
  });

  it("turns a DM into a direct envelope whose chatId is the DM channel", async () => {
    running = await startAccount();
    const pushed = running.fake.pushMessage({ channelId: "555000000000000001", authorId: "42", authorName: "alice", content: "hello there" });
    const envelope = await envelopeFor(running.stub, pushed.id);
    expect(envelope).toMatchObject({
      messageId: pushed.id,
      chatType: "direct",
      chatId: "555000000000000001",
      senderId: "42",
      senderName: "alice",
      senderUsername: "alice",
      senderIsBot: false,
      text: "hello there",
      mentionedBot: false,
      replyToBot: false,
    });
    expect(envelope.timestamp).toBeGreaterThan(Date.parse("2024-01-01"));
    expect(envelope.guildId).toBeUndefined();
    expect(envelope.threadId).toBeUndefined();
    expect(envelope.memberRoleIds).toBeUndefined();
  });

  it("turns a guild message into a channel envelope with the sender's roles (without @everyone) and mentions", async () => {
    running = await startAccount();
    const { fake, stub } = running;
    const plain = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "just chatting", memberRoles: [MOD_ROLE_ID] });
    const byUser = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: `<@${BOT_ID}> what's up`, mentionsBot: true });
    const byRole = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: `<@&${BOT_ROLE_ID}> hi`, mentionRoleIds: [BOT_ROLE_ID] });
    const otherRole = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: `<@&${MOD_ROLE_ID}> hi`, mentionRoleIds: [MOD_ROLE_ID] });

    expect(await envelopeFor(stub, plain.id)).toMatchObject({ chatType: "channel", chatId: GENERAL_ID, guildId: GUILD_ID, memberRoleIds: [MOD_ROLE_ID], mentionedBot: false });
    expect(await envelopeFor(stub, byUser.id)).toMatchObject({ text: `<@${BOT_ID}> what's up`, mentionedBot: true, memberRoleIds: [] });
    expect((await envelopeFor(stub, byRole.id)).mentionedBot).toBe(true);
    expect((await envelopeFor(stub, otherRole.id)).mentionedBot).toBe(false);
    expect((await envelopeFor(stub, plain.id)).threadId).toBeUndefined();
  });

  it("gives a thread message the thread as both chatId and threadId (a Discord thread is a channel)", async () => {
    running = await startAccount();
    const pushed = running.fake.pushMessage({ channelId: THREAD_ID, guildId: GUILD_ID, authorId: "42", content: "in the thread" });
    expect(await envelopeFor(running.stub, pushed.id)).toMatchObject({ chatType: "channel", chatId: THREAD_ID, threadId: THREAD_ID, guildId: GUILD_ID });
  });

  it("marks a reply to the bot's own message as replyToBot and carries what it replies to", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId: botMessageId } = await account.send({ chatId: GENERAL_ID }, { markdown: "I am the bot" });
    const userMessage = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "43", content: "someone else" });
    const replyToBot = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "answering the bot", referencedMessageId: botMessageId });
    const replyToUser = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "answering 43", referencedMessageId: userMessage.id });
    // A reply that pings lists the replied-to author in `mentions` without writing `<@id>`.
    const pingingReply = fake.pushMessage({
      channelId: GENERAL_ID,
      guildId: GUILD_ID,
      authorId: "42",
      content: "ping reply",
      referencedMessageId: botMessageId,
      mentionsBot: true,
    });

    expect(await envelopeFor(stub, replyToBot.id)).toMatchObject({
      replyToBot: true,
      mentionedBot: false,
      replyTo: { messageId: botMessageId, senderId: BOT_ID, body: "I am the bot" },
    });
    expect(await envelopeFor(stub, pingingReply.id)).toMatchObject({ replyToBot: true, mentionedBot: false });
    expect(await envelopeFor(stub, replyToUser.id)).toMatchObject({ replyToBot: false, replyTo: { messageId: userMessage.id, senderId: "43", body: "someone else" } });
  });

  it("drops the bot's own messages (Discord echoes them) but keeps other bots, flagged", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    await account.send({ chatId: GENERAL_ID }, { markdown: "my own words" });
    const otherBot = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "77", authorIsBot: true, content: "beep" });
    // Dispatches arrive in order: once the later message is here, the echo was seen and dropped.
    expect(await envelopeFor(stub, otherBot.id)).toMatchObject({ senderIsBot: true, text: "beep" });
    expect(fake.messages()).toHaveLength(1);
    expect(stub.envelopes.map((e) => e.senderId)).toEqual(["77"]);
  });

  it("stands in for attachments with <media:attachment>", async () => {
    running = await startAccount();
    const { fake, stub } = running;
    const withText = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "look", attachments: ["a.png", "b.pdf"] });
    const onlyFile = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "", attachments: ["c.png"] });
    expect((await envelopeFor(stub, withText.id)).text).toBe("look\n<media:attachment>\n<media:attachment>");
    expect((await envelopeFor(stub, onlyFile.id)).text).toBe("<media:attachment>");
  });

  it("logs an onInbound failure and keeps delivering", async () => {
    running = await startAccount();
    const { fake, stub } = running;
    let calls = 0;
    stub.setOnInbound(async (envelope) => {
      calls++;
      if (calls === 1) throw new Error("store is full");
      stub.envelopes.push(envelope);
    });
    fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "first" });
    const second = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "second" });
    await envelopeFor(stub, second.id);
    await waitFor(() => stub.logs.some((line) => line.includes("store is full")), 2000, "the failure to be logged");
    expect(stub.status.connected).toBe(true);
  });
});
