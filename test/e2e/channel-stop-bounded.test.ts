import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { sleep, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * The gateway stops in bounded time whatever a chat platform does: an account whose start never
 * gets an answer (Discord's `GET /gateway/bot`, Slack's `apps.connections.open`, a socket that
 * never says hello) and an account whose own stop hangs (a Telegram update whose file download
 * the platform holds) neither keep the process alive after SIGTERM nor hold the gateway lock,
 * and a reload restarting a stuck account holds the other accounts for the stop bound at most.
 */

const OWNER = 111;
const servers = useFakeServers();
let discord: FakeDiscord | undefined;
let slack: FakeSlack | undefined;

afterEach(async () => {
  await discord?.close();
  await slack?.close();
  discord = undefined;
  slack = undefined;
});

function discordConfig(fake: FakeDiscord): Record<string, unknown> {
  return { token: fake.token, restApiUrl: fake.restUrl, allowFrom: ["100000000000000111"], typingIntervalSeconds: 0 };
}

function slackConfig(fake: FakeSlack, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { botToken: fake.botToken, appToken: fake.appToken, slackApiUrl: fake.apiUrl, allowFrom: ["U1"], ...extra };
}

async function start(channels: Record<string, unknown>, stateDir = makeTempDir()): Promise<GatewayProcess> {
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels }) } });
  return servers.keep(gw);
}

/** SIGTERM, then: the process exits on its own (well inside the test's timeout) and leaves no lock behind. */
async function expectPromptExit(gw: GatewayProcess): Promise<void> {
  const code = await gw.stop("SIGTERM");
  expect(code).toBe(0);
  expect(fs.existsSync(path.join(gw.stateDir, "gateway.lock"))).toBe(false);
}

describe("an account whose start never gets an answer", () => {
  it("Discord holding GET /gateway/bot: SIGTERM exits and releases the lock, and nothing connects afterwards", { timeout: 20_000 }, async () => {
    discord = await startFakeDiscord();
    discord.hangNext("GET /gateway/bot");
    const gw = await start({ discord: discordConfig(discord) });
    await waitUntil(() => discord!.hungRequests === 1, 10_000, "the held GET /gateway/bot");
    await expectPromptExit(gw);
    expect(discord.identifyCount).toBe(0);
  });

  it("Discord whose gateway socket never says HELLO: SIGTERM exits and releases the lock", { timeout: 20_000 }, async () => {
    discord = await startFakeDiscord();
    discord.stallGateway(true);
    const gw = await start({ discord: discordConfig(discord) });
    await waitUntil(() => discord!.connectionCount > 0, 10_000, "the silent gateway socket");
    await expectPromptExit(gw);
    expect(discord.identifyCount).toBe(0);
  });

  it("Slack holding apps.connections.open: SIGTERM exits and releases the lock, and no socket opens", { timeout: 20_000 }, async () => {
    slack = await startFakeSlack();
    slack.hangNext("apps.connections.open");
    const gw = await start({ slack: slackConfig(slack) });
    await slack.waitFor(() => slack!.calls.some((c) => c.method === "apps.connections.open"), 10_000);
    await expectPromptExit(gw);
    expect(slack.socketConnections).toBe(0);
  });

  it("Slack whose socket never says hello: SIGTERM exits and releases the lock", { timeout: 20_000 }, async () => {
    slack = await startFakeSlack();
    slack.stallSockets(true);
    const gw = await start({ slack: slackConfig(slack) });
    await slack.waitFor(() => slack!.socketConnections > 0, 10_000);
    await expectPromptExit(gw);
  });
});

describe("stopping an account whose start never got an answer", () => {
  /** Writes `channels` as the config and waits until the gateway restarted the changed accounts. */
  async function reload(gw: GatewayProcess, channels: Record<string, unknown>): Promise<void> {
    fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), fakeModelConfig(servers.model, gw.stateDir, { channels }));
    await gw.waitForOutput(/channel config changed; restarting the account/, 10_000);
  }

  it("Discord: a reload disabling the account ends its start, so the late GET /gateway/bot answer connects nothing", { timeout: 20_000 }, async () => {
    discord = await startFakeDiscord();
    discord.hangNext("GET /gateway/bot");
    const gw = await start({ discord: discordConfig(discord) });
    await waitUntil(() => discord!.hungRequests === 1, 10_000, "the held GET /gateway/bot");
    await reload(gw, { discord: { ...discordConfig(discord), enabled: false } });
    discord.release();
    await sleep(1_500);
    expect(discord.connectionCount).toBe(0);
    await expectPromptExit(gw);
  });

  it("Slack: a reload disabling the account ends its start, so the late apps.connections.open answer opens no socket", { timeout: 20_000 }, async () => {
    slack = await startFakeSlack();
    slack.hangNext("apps.connections.open");
    const gw = await start({ slack: slackConfig(slack) });
    await slack.waitFor(() => slack!.calls.some((c) => c.method === "apps.connections.open"), 10_000);
    await reload(gw, { slack: { ...slackConfig(slack), enabled: false } });
    slack.release();
    await sleep(1_500);
    expect(slack.socketConnections).toBe(0);
    await expectPromptExit(gw);
  });
});

describe("an account whose stop never resolves", () => {
  /** A Telegram account busy with an update whose file download the platform holds: its polling loop cannot end. */
  async function telegramStuckOnAFile(stateDir?: string): Promise<{ gw: GatewayProcess; channels: Record<string, unknown> }> {
    const telegram = await servers.startTelegram();
    const channels = { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) };
    const gw = await start(channels, stateDir);
    await gw.waitForOutput(/channel account started/, 10_000);
    telegram.hangNext("getFile");
    const photo = telegram.addFile(Buffer.from("not really a png"), "photos/file_1.jpg");
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "look", photo, messageId: 1 });
    await telegram.waitFor(() => telegram.calls.some((c) => c.method === "getFile" && c.status === 0), 10_000);
    return { gw, channels };
  }

  it("SIGTERM still exits and releases the lock, and the log names the account that did not stop", { timeout: 20_000 }, async () => {
    const { gw } = await telegramStuckOnAFile();
    await expectPromptExit(gw);
    expect(gw.output()).toMatch(/channel telegram account default did not stop within 5 s/);
  });

  it("a reload restarting it and another account restarts the other one once the stop bound has passed", { timeout: 20_000 }, async () => {
    slack = await startFakeSlack();
    const stateDir = makeTempDir();
    const telegram = await servers.startTelegram();
    const channels = { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }), slack: slackConfig(slack) };
    const gw = await start(channels, stateDir);
    await slack.waitFor(() => slack!.socketConnections === 1, 10_000);
    await telegram.waitFor(() => telegram.calls.some((c) => c.method === "getUpdates"), 10_000);
    telegram.hangNext("getFile");
    const photo = telegram.addFile(Buffer.from("not really a png"), "photos/file_1.jpg");
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "look", photo, messageId: 1 });
    await telegram.waitFor(() => telegram.calls.some((c) => c.method === "getFile" && c.status === 0), 10_000);
    const changed = { telegram: { ...channels.telegram, textChunkLimit: 3000 }, slack: slackConfig(slack, { textChunkLimit: 3000 }) };
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir, { channels: changed }));
    // Every changed account stops before any starts (a renamed account may take over a token):
    // the Slack account comes back once the stuck Telegram account's stop has had its bound.
    await waitUntil(() => /channel telegram account default did not stop within 5 s/.test(gw.output()), 10_000, "the warning naming the stuck account");
    await slack.waitFor(() => slack!.socketConnections === 2, 10_000);
    await expectPromptExit(gw);
  });
});

describe("a reload that renames an account", () => {
  it("starts the renamed account on the bot token the old one held: the old one stops first", { timeout: 20_000 }, async () => {
    const stateDir = makeTempDir();
    const telegram = await servers.startTelegram();
    const gw = await start({ telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) }, stateDir);
    await gw.waitForOutput(/channel account started/, 10_000);
    const renamed = { telegram: { accounts: { work: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) } } };
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir, { channels: renamed }));
    await waitUntil(() => /"accountId":"work"[^\n]*"msg":"channel account started"/.test(gw.output()), 10_000, "the renamed account started");
    expect(gw.output()).not.toMatch(/uses the same bot token/);
    await expectPromptExit(gw);
  });
});
