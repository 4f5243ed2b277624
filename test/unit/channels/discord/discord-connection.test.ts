import { afterEach, describe, expect, it } from "vitest";
import discordPlugin from "../../../../extensions/discord/index.js";
import { ChannelPermanentError } from "../../../../src/channels/types.js";
import { startFakeDiscord, waitFor, type FakeDiscord } from "../../../fakes/discord-server.js";
import { envelopeFor, FAKE_OPTIONS, GENERAL_ID, GUILD_ID, startAccount, stubContext, type Running } from "./harness.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("discord plugin: connection supervision", () => {
  let running: Running | undefined;
  let fake: FakeDiscord | undefined;
  afterEach(async () => {
    await running?.cleanup();
    await fake?.close();
    running = undefined;
    fake = undefined;
  });

  it("resumes after a dropped socket and delivers the message sent while it was down exactly once", async () => {
    running = await startAccount();
    const { fake: discord, stub } = running;
    const before = discord.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "before" });
    await envelopeFor(stub, before.id);

    await discord.dropConnection({ resumable: true });
    const whileDown = discord.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "while down" });
    await waitFor(() => stub.status.connected === false, 2000, "the drop to be reported");
    await envelopeFor(stub, whileDown.id);
    await waitFor(() => stub.status.connected === true, 3000, "connected again");
    const after = discord.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "after" });
    await envelopeFor(stub, after.id);

    expect(discord.resumeCount).toBe(1);
    expect(discord.identifyCount).toBe(1);
    expect(stub.envelopes.map((e) => e.text)).toEqual(["before", "while down", "after"]);
    expect(stub.status.reconnectAttempts).toBe(1);
  });

  it("identifies again when the session cannot be resumed, and reports connected once the new session is READY", async () => {
    running = await startAccount();
    const { fake: discord, stub } = running;
    await discord.dropConnection({ resumable: false });
    await waitFor(() => stub.status.connected === false, 2000, "the drop to be reported");
    // discord.js spaces IDENTIFYs 5 s (+ up to 1.5 s jitter) apart, as Discord's identify limit demands.
    await waitFor(() => discord.identifyCount === 2 && stub.status.connected === true, 8000, "a second IDENTIFY");
    const pushed = discord.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "new session" });
    await envelopeFor(stub, pushed.id);
    expect(discord.resumeCount).toBe(0);
    expect(stub.status.reconnectAttempts).toBe(1);
  });

  it("rebuilds the client when the gateway never says HELLO, and the abandoned client stays dead", async () => {
    fake = await startFakeDiscord(FAKE_OPTIONS);
    fake.stallGateway(true);
    // The watchdog must outlast a healthy handshake on a loaded machine, or it rebuilds that one too.
    const stub = stubContext({ token: fake.token, restApiUrl: fake.restUrl, reconnectWatchdogMs: 1500, reconnectBackoffMaxMs: 100 });
    const account = discordPlugin.createAccount(stub.context, {});
    running = { fake, account, stub, cleanup: () => account.stop() };
    await account.start();
    const discord = fake;
    await waitFor(() => discord.connectionCount === 1, 2000, "the first (stalled) socket");
    discord.stallGateway(false);

    await waitFor(() => stub.status.connected === true, 6000, "connected through a rebuilt client");
    expect(stub.status.reconnectAttempts).toBeGreaterThanOrEqual(1);
    expect(stub.status.lastError).toMatch(/not READY for 1500 ms/);
    expect(discord.connectionCount).toBe(2);
    // discord.js would bring a client destroyed mid-handshake back to life 500 ms later.
    await pause(800);
    expect(discord.connectionCount).toBe(2);
    expect(discord.identifyCount).toBe(1);
    const pushed = discord.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "hello again" });
    await envelopeFor(stub, pushed.id);
    expect(stub.envelopes).toHaveLength(1);
  });

  it("treats a rejected token as permanent: a token-free lastError, no retry loop, sends fail for good", async () => {
    fake = await startFakeDiscord(FAKE_OPTIONS);
    const wrongToken = "MTIz.wrong-token-never-printed";
    const stub = stubContext({ token: wrongToken, restApiUrl: fake.restUrl, reconnectWatchdogMs: 200, reconnectBackoffMaxMs: 100 });
    const account = discordPlugin.createAccount(stub.context, {});
    running = { fake, account, stub, cleanup: () => account.stop() };
    await account.start();
    await waitFor(() => stub.status.lastError != null, 3000, "a lastError");

    expect(stub.status.lastError).toMatch(/token was rejected/);
    await pause(600);
    expect(fake.sent.filter((r) => r.path === "/gateway/bot")).toHaveLength(1);
    expect(fake.connectionCount).toBe(0);
    expect(stub.status).toMatchObject({ connected: false, reconnectAttempts: 0 });
    const error = await account.send({ chatId: GENERAL_ID }, { markdown: "x" }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ChannelPermanentError);
    for (const text of [JSON.stringify(stub.status), (error as Error).message, ...stub.logs]) expect(text).not.toContain("wrong-token-never-printed");
  });

  it("retries a login that fails for a transient reason (Discord unreachable) with a capped backoff", async () => {
    const gone = await startFakeDiscord(FAKE_OPTIONS);
    const unreachable = gone.restUrl;
    await gone.close();
    const stub = stubContext({ token: "abc", restApiUrl: unreachable, reconnectWatchdogMs: 5000, reconnectBackoffMaxMs: 100 });
    const account = discordPlugin.createAccount(stub.context, {});
    await account.start();
    try {
      await waitFor(() => (stub.status.reconnectAttempts ?? 0) >= 3, 2000, "three login attempts");
      expect(stub.status.connected).toBe(false);
      expect(stub.status.lastError).toMatch(/^discord: login failed: .*ECONNREFUSED/);
    } finally {
      await account.stop();
    }
  });

  it("stops promptly, closing the gateway socket, also in the middle of a stalled handshake", async () => {
    running = await startAccount();
    const started = Date.now();
    await running.account.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(running.stub.status.connected).toBe(false);
    await expect(running.account.send({ chatId: GENERAL_ID }, { markdown: "x" })).rejects.toThrow(/not running/);

    fake = await startFakeDiscord(FAKE_OPTIONS);
    fake.stallGateway(true);
    const stub = stubContext({ token: fake.token, restApiUrl: fake.restUrl });
    const stalled = discordPlugin.createAccount(stub.context, {});
    await stalled.start();
    const discord = fake;
    await waitFor(() => discord.connectionCount === 1, 2000, "the stalled socket");
    const stopping = Date.now();
    await stalled.stop();
    expect(Date.now() - stopping).toBeLessThan(1000);
    discord.stallGateway(false);
    await pause(700);
    expect(discord.connectionCount).toBe(1);
  });
});
