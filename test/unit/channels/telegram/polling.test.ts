import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InboundMessage } from "../../../../src/channels/types.js";
import { ChannelPermanentError } from "../../../../src/channels/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../../fakes/telegram-server.js";
import { accountFactory, fakeConfig, waitUntil } from "./helpers.js";

let fake: FakeTelegram;
const accounts = accountFactory();

beforeEach(async () => {
  fake = await startFakeTelegram({ botUsername: "Clawd_bot" });
});

afterEach(async () => {
  await accounts.cleanup();
  await fake.close();
});

describe("telegram long polling: inbound translation", () => {
  it("reports the bot identity from getMe and turns a DM into a direct envelope", async () => {
    const { account, inbound, status } = accounts.create(fakeConfig(fake));
    await account.start();
    expect(status).toMatchObject({ running: true, mode: "polling", botId: String(fake.botId), botUsername: "Clawd_bot" });

    fake.pushMessage({ chatId: 42, fromId: 42, fromName: "Ada", fromUsername: "ada", text: "hello", messageId: 7 });
    await waitUntil(() => inbound.length === 1);
    expect(inbound[0]).toEqual({
      messageId: "7",
      chatType: "direct",
      chatId: "42",
      senderId: "42",
      senderName: "Ada",
      senderUsername: "ada",
      text: "hello",
      timestamp: expect.any(Number),
    });
    expect(status.connected).toBe(true);
  });

  it("marks group messages that @mention the bot, in any letter case", async () => {
    const { account, inbound } = accounts.create(fakeConfig(fake));
    await account.start();
    fake.pushMessage({ chatId: -100200, fromId: 5, text: "hey @clawd_BOT look", entities: [{ type: "mention", offset: 4, length: 10 }] });
    fake.pushMessage({ chatId: -100200, fromId: 5, text: "hey @someone_else", entities: [{ type: "mention", offset: 4, length: 13 }] });
    await waitUntil(() => inbound.length === 2);
    expect(inbound[0]).toMatchObject({ chatType: "group", chatId: "-100200", senderId: "5", mentionedBot: true });
    expect(inbound[1]!.mentionedBot).toBeUndefined();
  });

  it("gives forum topic messages a threadId", async () => {
    const { account, inbound } = accounts.create(fakeConfig(fake));
    await account.start();
    fake.pushMessage({ chatId: -100300, fromId: 5, text: "in a topic", threadId: 17 });
    await waitUntil(() => inbound.length === 1);
    expect(inbound[0]).toMatchObject({ chatType: "group", chatId: "-100300", threadId: "17" });
  });

  it("sees a reply to the bot's own message as replyToBot, with the quoted message", async () => {
    const { account, inbound } = accounts.create(fakeConfig(fake));
    await account.start();
    fake.pushMessage({ chatId: -100400, fromId: 5, text: "why?", replyTo: { messageId: 90, fromId: fake.botId, text: "because" } });
    fake.pushMessage({ chatId: -100400, fromId: 5, text: "agreed", replyTo: { messageId: 91, fromId: 6, text: "cats" } });
    await waitUntil(() => inbound.length === 2);
    expect(inbound[0]).toMatchObject({ replyToBot: true, replyTo: { messageId: "90", body: "because", senderId: String(fake.botId) } });
    expect(inbound[1]!.replyToBot).toBeUndefined();
    expect(inbound[1]!.replyTo).toEqual({ messageId: "91", body: "cats", senderId: "6" });
  });
});

describe("telegram long polling: offsets and failures", () => {
  it("confirms an update (next offset) only after onInbound resolved", async () => {
    const { account, setInbound } = accounts.create(fakeConfig(fake));
    let finish!: () => void;
    const handled: string[] = [];
    setInbound(
      (envelope: InboundMessage) =>
        new Promise((resolve) => {
          finish = () => {
            handled.push(envelope.messageId);
            resolve();
          };
        }),
    );
    await account.start();
    const updateId = fake.pushMessage({ chatId: 42, fromId: 42, text: "slow" }).update_id!;
    await waitUntil(() => finish !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // While the handler runs, no getUpdates has told Telegram to forget the update.
    expect(fake.getUpdatesOffsets).not.toContain(updateId + 1);
    finish();
    await fake.waitFor(() => fake.getUpdatesOffsets.includes(updateId + 1));
    expect(handled).toHaveLength(1);
  });

  it("re-delivers an unconfirmed update to the next poller after a stop mid-handling", async () => {
    const first = accounts.create(fakeConfig(fake));
    let release!: () => void;
    first.setInbound(() => new Promise((resolve) => (release = resolve)));
    await first.account.start();
    const update = fake.pushMessage({ chatId: 42, fromId: 42, text: "again" });
    await waitUntil(() => release !== undefined);
    const stopped = first.account.stop();
    release();
    await stopped;

    const second = accounts.create(fakeConfig(fake));
    await second.account.start();
    await waitUntil(() => second.inbound.length === 1);
    expect(second.inbound[0]!.messageId).toBe(String((update.message as { message_id: number }).message_id));
  });

  it("logs a throwing onInbound and still moves past the update", async () => {
    const { account, setInbound, logs } = accounts.create(fakeConfig(fake));
    setInbound(async () => {
      throw new Error("store is on fire");
    });
    await account.start();
    const updateId = fake.pushMessage({ chatId: 42, fromId: 42, text: "poison" }).update_id!;
    await fake.waitFor(() => fake.getUpdatesOffsets.includes(updateId + 1));
    expect(logs.some((line) => line.includes("skipping it") && line.includes("store is on fire"))).toBe(true);
  });

  it("backs off on 409 Conflict, reports it, and recovers without throwing", async () => {
    const { account, inbound, status, statusPatches } = accounts.create(fakeConfig(fake));
    fake.conflictPolling(true);
    await account.start();
    await waitUntil(() => (status.reconnectAttempts ?? 0) >= 3);
    expect(status.connected).toBe(false);
    expect(status.lastError).toMatch(/getUpdates failed \(409: Conflict.*\(another process polls with this bot token, or a webhook is set\)/);
    // 50 ms, 100 ms, 200 ms…: three errors cannot all happen within the first 100 ms.
    const calls = fake.calls.filter((call) => call.method === "getUpdates");
    expect(calls[2]!.at - calls[0]!.at).toBeGreaterThanOrEqual(140);

    fake.conflictPolling(false);
    fake.pushMessage({ chatId: 42, fromId: 42, text: "back" });
    await waitUntil(() => inbound.length === 1, 5000);
    expect(status).toMatchObject({ connected: true, lastError: null });
    expect(statusPatches.some((patch) => patch.connected === false && patch.lastError)).toBe(true);
  });

  it("retries after a server error and a dropped connection", async () => {
    const { account, inbound, status } = accounts.create(fakeConfig(fake));
    fake.failNext("getUpdates", { status: 500 });
    fake.hangNext("getUpdates");
    await account.start();
    await fake.waitFor(() => fake.calls.some((call) => call.method === "getUpdates" && call.status === 0));
    fake.release();
    fake.pushMessage({ chatId: 42, fromId: 42, text: "still here" });
    await waitUntil(() => inbound.length === 1, 5000);
    expect(status.reconnectAttempts).toBe(2);
    expect(status.connected).toBe(true);
  });

  it("stops polling for good on 401, with a lastError free of the token", async () => {
    const { account, status, logs } = accounts.create(fakeConfig(fake));
    await account.start();
    await fake.waitFor(() => fake.getUpdatesCalls >= 1);
    fake.failNext("getUpdates", { status: 401 });
    // Wake the held long poll so the next request meets the 401.
    fake.pushMessage({ chatId: 42, fromId: 42, text: "wake up" });
    await waitUntil(() => /rejected the bot token/.test(status.lastError ?? ""));
    const callsAfter401 = fake.getUpdatesCalls;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.getUpdatesCalls).toBe(callsAfter401);
    expect(status.connected).toBe(false);
    expect(status.lastError).not.toContain(fake.token);
    expect(logs.join("\n")).not.toContain(fake.token);
  });

  it("fails start with a permanent, token-free error when getMe is refused", async () => {
    const { account, status } = accounts.create(fakeConfig(fake, { botToken: "999:wrong-token" }));
    const failure = await account.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ChannelPermanentError);
    expect(String(failure)).toMatch(/rejected the bot token/);
    expect(String(failure)).not.toContain("999:wrong-token");
    expect(status).toMatchObject({ running: false, connected: false, lastError: expect.stringMatching(/rejected the bot token/) });
  });

  it("keeps trying when Telegram is unreachable at start, and connects once it answers", async () => {
    fake.failNext("getMe", { status: 500 });
    const { account, status, inbound } = accounts.create(fakeConfig(fake));
    await account.start();
    expect(status.lastError).toMatch(/getMe failed \(500/);
    fake.pushMessage({ chatId: 42, fromId: 42, text: "late" });
    await waitUntil(() => inbound.length === 1);
    expect(status.botUsername).toBe("Clawd_bot");
  });

  it("stop() returns promptly in the middle of a long poll", async () => {
    const { account, status } = accounts.create(fakeConfig(fake, { pollingTimeoutSeconds: 30 }));
    await account.start();
    await fake.waitFor(() => fake.getUpdatesCalls >= 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const began = Date.now();
    await account.stop();
    expect(Date.now() - began).toBeLessThan(500);
    expect(status).toMatchObject({ running: false, connected: false });
  });

  it("removes a leftover webhook before polling", async () => {
    const { account } = accounts.create(fakeConfig(fake, { webhookUrl: "https://example.com/hook", webhookSecret: "s3cret" }));
    await account.start();
    expect(fake.webhook).toEqual({ url: "https://example.com/hook", secretToken: "s3cret" });
    await account.stop();

    const { account: poller, inbound } = accounts.create(fakeConfig(fake));
    await poller.start();
    expect(fake.webhook).toBeNull();
    fake.pushMessage({ chatId: 42, fromId: 42, text: "polled" });
    await waitUntil(() => inbound.length === 1);
  });

  it("refuses a second account polling with the same token in this process", async () => {
    const first = accounts.create(fakeConfig(fake), "default");
    await first.account.start();
    const second = accounts.create(fakeConfig(fake), "backup");
    await expect(second.account.start()).rejects.toThrow(/account "backup" uses the same bot token as account "default"/);
    await first.account.stop();
    // The token is free again once its poller stopped.
    await second.account.start();
  });

  it("a replacement keeps the token when the account it replaced finishes stopping late", async () => {
    const old = accounts.create(fakeConfig(fake), "default");
    let letGo: (() => void) | undefined;
    old.setInbound(() => new Promise<void>((resolve) => (letGo = resolve)));
    await old.account.start();
    fake.pushMessage({ chatId: 42, fromId: 42, text: "held" });
    await waitUntil(() => letGo !== undefined);
    const oldStopped = old.account.stop();
    // The gateway stopped waiting for it (its stop bound) and started the account anew.
    const next = accounts.create(fakeConfig(fake), "default");
    await next.account.start();
    letGo!();
    await oldStopped;
    const other = accounts.create(fakeConfig(fake), "backup");
    await expect(other.account.start()).rejects.toThrow(/same bot token/);
  });

  it("restarts cleanly when start follows stop before the old poll has let go", async () => {
    const { account, inbound } = accounts.create(fakeConfig(fake));
    await account.start();
    await fake.waitFor(() => fake.getUpdatesCalls >= 1);
    void account.stop();
    await account.start();
    fake.pushMessage({ chatId: 42, fromId: 42, text: "after restart" });
    await waitUntil(() => inbound.length === 1);
    // The restarted poller still holds the token.
    const other = accounts.create(fakeConfig(fake), "other");
    await expect(other.account.start()).rejects.toThrow(/same bot token/);
  });
});
