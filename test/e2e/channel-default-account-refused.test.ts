import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, sleep } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `channels.telegram.defaultAccount` names an account the running gateway refused (its bot token
 * is another account's), through the real gateway on one fake Bot API server: a `send` or an
 * `agent` with `to` that names no account fails at once, naming the account, why it does not run
 * and the fix; a cron job announced there is refused when added and fails its run before any
 * model time is spent on it.
 */

const OWNER = 111;
const servers = useFakeServers();

const REFUSED =
  'channel telegram account work cannot start: channels.telegram.accounts.work has the same bot token as the account "alpha", which runs that bot (two connections to one bot take each other\'s updates); give channels.telegram.accounts.work its own botToken (or tokenFile), or remove it; no account was named and channels.telegram.defaultAccount names it: name an account that runs (accountId), or set channels.telegram.defaultAccount to one';

describe("a default account the gateway refused", () => {
  it("fails a send or an agent turn that names no account at once, saying which account, why and the fix", { timeout: 30_000 }, async () => {
    const bot = await servers.startTelegram();
    const { botToken, ...shared } = telegramChannelConfig(bot, { allowFrom: [String(OWNER)] });
    const stateDir = makeTempDir();
    const telegram = { ...shared, defaultAccount: "work", accounts: { work: { botToken }, alpha: { botToken } } };
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) } }));
    await gw.waitForOutput(/channel account not started/, 10_000);
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const began = Date.now();
      const sent = await sock.request("send", { channel: "telegram", to: String(OWNER), message: "hi", idempotencyKey: "send-1" });
      expect(sent.ok).toBe(false);
      expect(sent.error.message).toBe(REFUSED);
      const turn = await sock.request("agent", { channel: "telegram", to: String(OWNER), message: "hi", idempotencyKey: "agent-1" });
      expect(turn.ok).toBe(false);
      expect(turn.error.message).toBe(`to: ${REFUSED}`);
      // Neither waited for the account (an interactive wait is 5 s).
      expect(Date.now() - began).toBeLessThan(3_000);
      // Named, the running account sends.
      const named = await sock.request("send", { channel: "telegram", accountId: "alpha", to: String(OWNER), message: "via alpha", idempotencyKey: "send-2" });
      expect(named.ok, JSON.stringify(named.error)).toBe(true);
      expect(bot.messages(OWNER).map((m) => String(m.text))).toEqual(["via alpha"]);
    } finally {
      sock.close();
    }
  });

  it("fails the message tool's file send that names no account at once, with the same words", { timeout: 30_000 }, async () => {
    const bot = await servers.startTelegram();
    const { botToken, ...shared } = telegramChannelConfig(bot, { allowFrom: [String(OWNER)] });
    const stateDir = makeTempDir();
    fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
    fs.writeFileSync(path.join(stateDir, "workspace", "notes.txt"), "meeting notes");
    const telegram = { ...shared, defaultAccount: "work", accounts: { work: { botToken }, alpha: { botToken } } };
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) } }));
    await gw.waitForOutput(/channel account not started/, 10_000);
    servers.model.enqueue(
      { toolCalls: [{ name: "message", arguments: { message: "the notes", file: "notes.txt", channel: "telegram", to: String(OWNER) } }] },
      { text: "could not" },
    );
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const accepted = await sock.request("agent", { message: "send the notes", idempotencyKey: "file-1" });
      expect(accepted.ok, JSON.stringify(accepted.error)).toBe(true);
      await sock.request("agent.wait", { runId: accepted.payload.runId, timeoutMs: 15_000 }, 20_000);
    } finally {
      sock.close();
    }
    const messages = (chatRequests(servers.model).at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    const toolResult = JSON.parse(messages.find((m) => m.role === "tool")!.content);
    expect(toolResult).toMatchObject({ error: "CHANNEL_SEND_FAILED", message: REFUSED });
    expect(bot.uploads).toEqual([]);
  });

  it("refuses a cron job announced there, and a job added before the refusal fails its run without a model turn", { timeout: 60_000 }, async () => {
    const bot = await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "report" }));
    const { botToken, ...shared } = telegramChannelConfig(bot, { allowFrom: [String(OWNER)] });
    const stateDir = makeTempDir();
    const configFor = (accounts: Record<string, unknown>) => fakeModelConfig(servers.model, stateDir, { channels: { telegram: { ...shared, defaultAccount: "work", accounts } } });
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor({ work: { botToken } }) } }));
    await gw.waitForOutput(/channel account started/, 10_000);
    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const addJob = () =>
      runCli(["cron", "add", "--name", "report", "--every", "1h", "--message", "Write the report", "--channel", "telegram", "--to", String(OWNER), "--json"], env);
    const added = await addJob();
    expect(added.code, added.output).toBe(0);
    const jobId = JSON.parse(added.output).job.id as string;

    // alpha sorts before work, so it takes the bot and work is refused.
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor({ work: { botToken }, alpha: { botToken } }));
    await gw.waitForOutput(/channel account not started/, 10_000);

    const refusedAdd = await addJob();
    expect(refusedAdd.code).not.toBe(0);
    expect(JSON.parse(refusedAdd.output).error.message).toBe(`delivery.accountId: ${REFUSED}`);

    const ran = await runCli(["cron", "run", jobId], env);
    expect(ran.code, ran.output).toBe(0);
    let entry: Record<string, unknown> | undefined;
    for (const deadline = Date.now() + 15_000; entry === undefined && Date.now() < deadline; await sleep(200)) {
      entry = JSON.parse((await runCli(["cron", "runs", jobId, "--json"], env)).output).entries[0];
    }
    expect(entry).toEqual(expect.objectContaining({ status: "error", error: REFUSED }));
    await sleep(300);
    expect(chatRequests(servers.model)).toHaveLength(0);
    expect(bot.messages(OWNER)).toEqual([]);
  });
});
