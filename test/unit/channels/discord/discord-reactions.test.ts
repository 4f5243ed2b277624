import { GatewayIntentBits, type GatewayMessageReactionAddDispatchData } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import discordPlugin from "../../../../extensions/discord/index.js";
import { toInboundReaction } from "../../../../extensions/discord/inbound.js";
import type { InboundReaction } from "../../../../src/channels/types.js";
import { waitFor } from "../../../fakes/discord-server.js";
import { BOT_ID, envelopeFor, GENERAL_ID, GUILD_ID, MOD_ROLE_ID, startAccount, stubContext, THREAD_ID, type Running, type StubContext } from "./harness.js";

const DM_CHANNEL = "555000000000000001";

/** Waits until a reaction to this message by this user arrived and returns it. */
async function reactionFor(stub: StubContext, messageId: string, senderId: string): Promise<InboundReaction> {
  const find = () => stub.reactions.find((r) => r.messageId === messageId && r.senderId === senderId);
  await waitFor(() => find() !== undefined, 3000, `a reaction by ${senderId} on ${messageId}`);
  return find()!;
}

describe("discord plugin: reactions", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.cleanup();
    running = undefined;
  });

  it("identifies with the guild and DM reaction intents", async () => {
    running = await startAccount();
    const intents = running.fake.lastIdentifyIntents!;
    for (const bit of [GatewayIntentBits.GuildMessageReactions, GatewayIntentBits.DirectMessageReactions]) expect(intents & bit).toBe(bit);
  });

  it("places a guild channel reaction as that channel's messages are placed, with the member's roles, nickname and the channel's name", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId: botMessage } = await account.send({ chatId: GENERAL_ID }, { markdown: "I am the bot" });
    const userMessage = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "43", content: "someone else" });
    const message = await envelopeFor(stub, userMessage.id);

    fake.pushReaction({ channelId: GENERAL_ID, messageId: botMessage, userId: "42", userName: "alice", nick: "Ali", memberRoles: [MOD_ROLE_ID], emoji: "✅" });
    fake.pushReaction({ channelId: GENERAL_ID, messageId: userMessage.id, userId: "42", userName: "alice", emoji: "👀" });

    const onBot = await reactionFor(stub, botMessage, "42");
    expect(onBot).toEqual({
      chatType: "channel",
      chatId: GENERAL_ID,
      guildId: GUILD_ID,
      chatName: "general",
      messageId: botMessage,
      onBotMessage: true,
      senderId: "42",
      senderName: "Ali",
      senderUsername: "alice",
      senderIsBot: false,
      memberRoleIds: [MOD_ROLE_ID],
      emoji: "✅",
    });
    // The same chat keys as a message from there: the reaction goes to that chat's session.
    expect({ chatType: onBot.chatType, chatId: onBot.chatId, guildId: onBot.guildId }).toEqual({ chatType: message.chatType, chatId: message.chatId, guildId: message.guildId });
    expect(await reactionFor(stub, userMessage.id, "42")).toMatchObject({ onBotMessage: false, senderName: "alice", memberRoleIds: [], emoji: "👀" });
    expect(fake.unhandledRoutes).toEqual([]);
  });

  it("gives a thread reaction the thread as chatId and threadId and its parent as parentChatId", async () => {
    running = await startAccount();
    const { fake, stub } = running;
    const pushed = fake.pushMessage({ channelId: THREAD_ID, guildId: GUILD_ID, authorId: "43", content: "in the thread" });
    const message = await envelopeFor(stub, pushed.id);
    fake.pushReaction({ channelId: THREAD_ID, messageId: pushed.id, userId: "42", emoji: "🔥" });
    const reaction = await reactionFor(stub, pushed.id, "42");
    expect(reaction).toMatchObject({ chatType: "channel", chatId: THREAD_ID, threadId: THREAD_ID, parentChatId: GENERAL_ID, guildId: GUILD_ID, chatName: "a thread" });
    expect(reaction).toMatchObject({ threadId: message.threadId, parentChatId: message.parentChatId });
  });

  it("names a custom emoji by its name", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId } = await account.send({ chatId: GENERAL_ID }, { markdown: "vote" });
    fake.pushReaction({ channelId: GENERAL_ID, messageId, userId: "42", emoji: { id: "880000000000000001", name: "partyblob" } });
    expect((await reactionFor(stub, messageId, "42")).emoji).toBe("partyblob");
  });

  it("turns a DM reaction into a direct one keyed by the DM channel, as the DM's messages", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const pushed = fake.pushMessage({ channelId: DM_CHANNEL, authorId: "42", authorName: "alice", content: "hello" });
    const message = await envelopeFor(stub, pushed.id);
    const { messageId } = await account.send({ chatId: DM_CHANNEL }, { markdown: "hi alice" });
    fake.pushReaction({ channelId: DM_CHANNEL, messageId, userId: "42", emoji: "👍" });
    const reaction = await reactionFor(stub, messageId, "42");
    expect(reaction).toEqual({
      chatType: "direct",
      chatId: DM_CHANNEL,
      messageId,
      onBotMessage: true,
      senderId: "42",
      senderName: "alice",
      senderUsername: "alice",
      senderIsBot: false,
      emoji: "👍",
    });
    expect({ chatType: reaction.chatType, chatId: reaction.chatId }).toEqual({ chatType: message.chatType, chatId: message.chatId });
  });

  it("after a restart (nothing cached) knows the bot's message from message_author_id and looks the DM user up", async () => {
    running = await startAccount();
    const { fake, account } = running;
    fake.pushMessage({ channelId: DM_CHANNEL, authorId: "42", authorName: "alice", content: "hello" });
    const { messageId } = await account.send({ chatId: DM_CHANNEL }, { markdown: "hi alice" });
    await account.stop();

    const fresh = stubContext({ token: fake.token, restApiUrl: fake.restUrl });
    const restarted = discordPlugin.createAccount(fresh.context, {});
    await restarted.start();
    try {
      await waitFor(() => fresh.status.connected === true, 5000, "the restarted account to connect");
      fake.pushReaction({ channelId: DM_CHANNEL, messageId, userId: "42", emoji: "👍" });
      fake.pushReaction({ channelId: DM_CHANNEL, messageId, userId: "42", emoji: "🎉", withoutMessageAuthor: true });
      await waitFor(() => fresh.reactions.length === 2, 3000, "both reactions");
      expect(fresh.reactions[0]).toMatchObject({ chatType: "direct", chatId: DM_CHANNEL, onBotMessage: true, senderName: "alice", senderUsername: "alice", emoji: "👍" });
      // Neither the payload nor the cache says who wrote it: unknown, which `own` takes as not the bot's.
      expect(fresh.reactions[1]!.emoji).toBe("🎉");
      expect(fresh.reactions[1]!.onBotMessage).toBeUndefined();
      expect(fake.sent.map((r) => `${r.method} ${r.path}`)).toContain("GET /users/42");
      expect(fake.unhandledRoutes).toEqual([]);
    } finally {
      await restarted.stop();
    }
  });

  it("knows the bot's cached message without message_author_id", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId } = await account.send({ chatId: GENERAL_ID }, { markdown: "cached" });
    fake.pushReaction({ channelId: GENERAL_ID, messageId, userId: "42", emoji: "✅", withoutMessageAuthor: true });
    expect((await reactionFor(stub, messageId, "42")).onBotMessage).toBe(true);
  });

  it("ignores the bot's own reactions", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId } = await account.send({ chatId: GENERAL_ID }, { markdown: "status" });
    fake.pushReaction({ channelId: GENERAL_ID, messageId, userId: BOT_ID, emoji: "👀" });
    fake.pushReaction({ channelId: GENERAL_ID, messageId, userId: "42", emoji: "✅" });
    // Dispatches arrive and are handed over in order: once the later one is here, the bot's was dropped.
    await reactionFor(stub, messageId, "42");
    expect(stub.reactions.map((r) => r.senderId)).toEqual(["42"]);
  });

  it("hands a channel's message over only after the reaction before it settled; other channels do not wait", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId } = await account.send({ chatId: GENERAL_ID }, { markdown: "react to me" });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const events: string[] = [];
    stub.setOnReaction(async (reaction) => {
      events.push(`reaction ${reaction.emoji}`);
      await held;
      events.push(`reaction ${reaction.emoji} on disk`);
    });
    stub.setOnInbound(async (envelope) => {
      events.push(`message ${envelope.text}`);
      stub.envelopes.push(envelope);
    });
    fake.pushReaction({ channelId: GENERAL_ID, messageId, userId: "42", emoji: "✅" });
    const after = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "after the reaction" });
    const elsewhere = fake.pushMessage({ channelId: THREAD_ID, guildId: GUILD_ID, authorId: "42", content: "in the thread" });
    // Discord sent the channel's message before the thread's: once the thread's is here, the other one is being held.
    await envelopeFor(stub, elsewhere.id);
    await waitFor(() => events.includes("reaction ✅"), 3000, "the reaction to be handed over");
    expect(events).not.toContain("message after the reaction");
    release();
    await envelopeFor(stub, after.id);
    expect(events.filter((e) => !e.includes("thread"))).toEqual(["reaction ✅", "reaction ✅ on disk", "message after the reaction"]);
  });

  it("logs an onReaction failure and keeps delivering the channel's events", async () => {
    running = await startAccount();
    const { fake, stub, account } = running;
    const { messageId } = await account.send({ chatId: GENERAL_ID }, { markdown: "react to me" });
    stub.setOnReaction(async () => {
      throw new Error("notice store is full");
    });
    fake.pushReaction({ channelId: GENERAL_ID, messageId, userId: "42", emoji: "✅" });
    const next = fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "still here" });
    await envelopeFor(stub, next.id);
    await waitFor(() => stub.logs.some((line) => line.includes("notice store is full")), 2000, "the failure to be logged");
    expect(stub.status.connected).toBe(true);
  });
});

describe("toInboundReaction", () => {
  const base: GatewayMessageReactionAddDispatchData = {
    type: 0,
    user_id: "42",
    channel_id: GENERAL_ID,
    message_id: "700000000000000001",
    emoji: { id: null, name: "✅" },
    burst: false,
    burst_colors: [],
  } as unknown as GatewayMessageReactionAddDispatchData;

  it("leaves onBotMessage unknown when neither the payload nor the cache names the author", () => {
    expect(toInboundReaction(base, BOT_ID, {})!.onBotMessage).toBeUndefined();
    expect(toInboundReaction({ ...base, message_author_id: "43" }, BOT_ID, { cachedAuthorId: BOT_ID })!.onBotMessage).toBe(false);
    expect(toInboundReaction(base, BOT_ID, { cachedAuthorId: BOT_ID })!.onBotMessage).toBe(true);
  });

  it("marks a MESSAGE_REACTION_REMOVE as a removal", () => {
    expect(toInboundReaction(base, BOT_ID, {}, true)).toMatchObject({ emoji: "✅", removed: true });
    expect(toInboundReaction(base, BOT_ID, {})).not.toHaveProperty("removed");
  });

  it("names the sender by id only when nothing else is known", () => {
    const reaction = toInboundReaction(base, BOT_ID, {})!;
    expect(reaction).toEqual({ chatType: "direct", chatId: GENERAL_ID, messageId: base.message_id, senderId: "42", emoji: "✅" });
  });

  it("prefers the member's nickname, then the global name; a legacy discriminator stays in the username", () => {
    const user = { id: "42", username: "alice", discriminator: "1234", global_name: "Alice A", avatar: null };
    const member = { user, roles: [GUILD_ID, MOD_ROLE_ID], nick: null, joined_at: "", deaf: false, mute: false, flags: 0 };
    const reaction = toInboundReaction({ ...base, guild_id: GUILD_ID, member } as GatewayMessageReactionAddDispatchData, BOT_ID, { channel: { isThread: false } })!;
    expect(reaction).toMatchObject({ senderName: "Alice A", senderUsername: "alice#1234", senderIsBot: false, memberRoleIds: [MOD_ROLE_ID] });
    expect(reaction.chatName).toBeUndefined();
  });

  it("drops the bot's own reaction and a custom emoji without a name", () => {
    expect(toInboundReaction({ ...base, user_id: BOT_ID }, BOT_ID, {})).toBeNull();
    expect(toInboundReaction({ ...base, emoji: { id: "880000000000000001", name: null } }, BOT_ID, {})).toBeNull();
  });
});
