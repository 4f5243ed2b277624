import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, waitUntilGateway } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * `channels.stop` / `channels.start`: one Telegram account (the real grammY client on the fake
 * Bot API server) is stopped and kept down, across config reloads, until it is started again.
 */

const OWNER = 111;
const servers = useFakeServers();
const STOP_NOTE = "stopped by channels.stop; channels.start (or a gateway restart) starts it again";

function configFor(stateDir: string, options: { telegram?: Record<string, unknown>; more?: Record<string, unknown> } = {}): string {
  const telegram = telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], ...options.telegram });
  return fakeModelConfig(servers.model, stateDir, { channels: { telegram }, ...options.more });
}

async function start(telegram: Record<string, unknown> = {}): Promise<{ gw: GatewayProcess; sock: TestSocket }> {
  const stateDir = makeTempDir();
  const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir, { telegram }) } }));
  await gw.waitForOutput(/channel account started/, 10_000);
  return { gw, sock: (await openOperator(gw.url, gw.token)).sock };
}

const repliesTo = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));
const linesMatching = (gw: GatewayProcess, pattern: RegExp) =>
  gw
    .output()
    .split("\n")
    .filter((line) => pattern.test(line)).length;

async function defaultAccount(sock: TestSocket): Promise<Record<string, unknown>> {
  const status = await sock.request("channels.status", {});
  expect(status.ok, JSON.stringify(status.error)).toBe(true);
  return ((status.payload as { channelAccounts: Record<string, Frame[]> }).channelAccounts.telegram ?? []).find((a) => a.accountId === "default")!;
}

async function call(sock: TestSocket, method: string, params: Record<string, unknown>): Promise<Frame> {
  const res = await sock.request(method, params, 30_000);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload as Frame;
}

describe("channels.stop and channels.start", () => {
  it("stop keeps the account down across reloads; start brings it back and it answers what was sent meanwhile", { timeout: 60_000 }, async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const { gw, sock } = await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "before", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);

    // Through the CLI, as an operator would; no accountId: the channel's default account.
    const cliEnv = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token!, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const stopped = await runCli(["gateway", "call", "channels.stop", "--params", '{"channel":"telegram"}'], cliEnv);
    expect(stopped.code, stopped.output).toBe(0);
    expect(JSON.parse(stopped.output)).toEqual({ channel: "telegram", accountId: "default", stopped: true });
    expect(await defaultAccount(sock)).toMatchObject({ running: false, connected: false, lastError: STOP_NOTE });
    const status = await runCli(["channels", "status"], cliEnv);
    expect(status.output).toMatch(/^telegram\/default: stopped \(.*\) — last error: stopped by channels\.stop; channels\.start \(or a gateway restart\) starts it again$/m);
    const pollsWhenStopped = servers.telegram.getUpdatesCalls;

    // A DM while it is stopped is left with Telegram: nothing polls for it.
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "while stopped", messageId: 2 });

    // A reload of an unrelated key, then one of the account's own keys, leaves it stopped.
    const file = path.join(gw.stateDir, "openclaw.json");
    fs.writeFileSync(file, configFor(gw.stateDir, { more: { messages: { responsePrefix: "[bot]" } } }));
    await waitUntilGateway(gw, () => linesMatching(gw, /"msg":"config reloaded"/) === 1, 10_000, "the unrelated reload");
    fs.writeFileSync(file, configFor(gw.stateDir, { telegram: { textChunkLimit: 3000 }, more: { messages: { responsePrefix: "[bot]" } } }));
    await gw.waitForOutput(/the account stays stopped by channels\.stop until channels\.start/, 10_000);
    expect(linesMatching(gw, /channel account started/)).toBe(1);
    expect(servers.telegram.getUpdatesCalls).toBe(pollsWhenStopped);
    expect(repliesTo(OWNER)).toEqual(["echo: before"]);
    expect(await defaultAccount(sock)).toMatchObject({ running: false, lastError: STOP_NOTE });

    // A direct send is refused at once, saying what starts the account.
    expect((await sock.request("send", { channel: "telegram", accountId: "default", to: String(OWNER), message: "hi", idempotencyKey: "while-stopped" })).error).toMatchObject({
      code: "INVALID_REQUEST",
      message: `channel telegram account default was ${STOP_NOTE}`,
    });

    // A second stop finds it stopped already.
    expect(await call(sock, "channels.stop", { channel: "telegram", accountId: "default" })).toEqual({ channel: "telegram", accountId: "default", stopped: true });

    const started = await call(sock, "channels.start", { channel: "telegram", accountId: "default" });
    expect(started).toEqual({ channel: "telegram", accountId: "default", started: true, outcome: { status: "handed-off" } });
    expect(await defaultAccount(sock)).toMatchObject({ running: true, lastError: null });
    // Telegram kept the DM sent while it was stopped (no offset confirmed it): the started account answers it, under the reloaded config.
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 2, 10_000);
    expect(repliesTo(OWNER)[1]).toBe("[bot] echo: while stopped");
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "after", messageId: 3 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 3, 10_000);
    expect(repliesTo(OWNER)[2]).toBe("[bot] echo: after");

    // Starting a running account starts nothing more.
    expect(await call(sock, "channels.start", { channel: "telegram" })).toEqual({
      channel: "telegram",
      accountId: "default",
      started: true,
      outcome: { status: "retry", reason: "task-owned" },
    });
    expect(servers.telegram.mostPollsHeld).toBe(1);
    sock.close();
  });

  it("a start whose platform does not answer is in flight for a second start, and a stop ends it at once", { timeout: 60_000 }, async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const { sock } = await start();
    await call(sock, "channels.stop", { channel: "telegram" });
    const getMeHeld = () => servers.telegram.calls.filter((c) => c.method === "getMe" && c.status === 0).length;
    servers.telegram.hangNext("getMe");
    const first = sock.request("channels.start", { channel: "telegram" }, 30_000);
    await servers.telegram.waitFor(() => getMeHeld() === 1, 10_000);

    // `started` is the account's own running flag, which a Telegram account raises before getMe answers.
    expect(await call(sock, "channels.start", { channel: "telegram" })).toEqual({
      channel: "telegram",
      accountId: "default",
      started: true,
      outcome: { status: "retry", reason: "start-in-flight" },
    });
    const pollsBefore = servers.telegram.getUpdatesCalls;
    expect(await call(sock, "channels.stop", { channel: "telegram" })).toEqual({ channel: "telegram", accountId: "default", stopped: true });
    // The first start was handed off; the stop ended it before it ran.
    expect((await first).payload).toEqual({ channel: "telegram", accountId: "default", started: false, outcome: { status: "handed-off" } });
    expect(await defaultAccount(sock)).toMatchObject({ running: false, lastError: STOP_NOTE });

    servers.telegram.release();
    expect(await call(sock, "channels.start", { channel: "telegram" })).toMatchObject({ started: true, outcome: { status: "handed-off" } });
    await servers.telegram.waitFor(() => servers.telegram.getUpdatesCalls > pollsBefore, 10_000);
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "back", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);
    expect(repliesTo(OWNER)).toEqual(["echo: back"]);
    expect(servers.telegram.mostPollsHeld).toBe(1);
    sock.close();
  });

  it("refuses an unknown channel or account and a caller without operator.admin, and skips a disabled or unstartable account", async () => {
    await servers.startTelegram();
    // `twin` would poll with the default account's bot token, which it inherits: it cannot start.
    const { gw, sock } = await start({ accounts: { spare: { enabled: false, botToken: "999:TEST-spare-token" }, twin: {} } });
    for (const method of ["channels.stop", "channels.start"]) {
      expect((await sock.request(method, { channel: "whatsapp" })).error).toMatchObject({
        code: "INVALID_REQUEST",
        message: 'unknown channel "whatsapp" (expected one of: telegram, discord, slack)',
      });
      expect((await sock.request(method, { channel: "discord" })).error).toMatchObject({
        code: "INVALID_REQUEST",
        message: "channel discord is not configured (add a channels.discord block)",
      });
      expect((await sock.request(method, { channel: "telegram", accountId: "work" })).error).toMatchObject({
        code: "INVALID_REQUEST",
        message: 'unknown account "work" on channel telegram (configured accounts: default, spare, twin)',
      });
    }

    const { sock: writer, hello } = await openOperator(gw.url, gw.token, { scopes: ["operator.write", "operator.read"] });
    expect((hello as { features: { methods: string[] } }).features.methods).toEqual(expect.arrayContaining(["channels.status", "channels.stop", "channels.start"]));
    for (const method of ["channels.stop", "channels.start"]) {
      expect((await writer.request(method, { channel: "telegram" })).error).toMatchObject({ code: "FORBIDDEN", message: "missing scope: operator.admin" });
    }
    writer.close();
    expect(await defaultAccount(sock)).toMatchObject({ running: true });

    expect(await call(sock, "channels.start", { channel: "telegram", accountId: "spare" })).toEqual({
      channel: "telegram",
      accountId: "spare",
      started: false,
      outcome: { status: "skipped", reason: "disabled" },
    });
    expect(await call(sock, "channels.start", { channel: "telegram", accountId: "twin" })).toEqual({
      channel: "telegram",
      accountId: "twin",
      started: false,
      outcome: { status: "skipped", reason: "unconfigured" },
    });
    expect(servers.telegram.mostPollsHeld).toBe(1);
    sock.close();
  });
});
