import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Two Telegram accounts that set the same botToken through the real gateway, on one fake Bot API
 * server: only the first by account id (`alpha`) polls the bot, `work` is refused with a problem
 * in `channels status` naming both and the fix, and a DM is answered once; at start and when a
 * config reload adds the second account.
 */

const OWNER = 111;
const servers = useFakeServers();

describe("two accounts with the same bot token", () => {
  it("starts the first by account id only; the other is refused, and the bot is polled by one poller", { timeout: 30_000 }, async () => {
    const bot = await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "answered" }));
    const { botToken, ...shared } = telegramChannelConfig(bot, { allowFrom: [String(OWNER)] });
    const stateDir = makeTempDir();
    const telegram = { ...shared, accounts: { work: { botToken }, alpha: { botToken } } };
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) } }));
    await gw.waitForOutput(/channel account started/, 10_000);
    await gw.waitForOutput(/channel account not started/, 10_000);

    bot.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello", messageId: 1 });
    await bot.waitFor(() => bot.messages(OWNER).length === 1, 10_000);
    // Several 1-second long polls go by: a second poller would have held one beside the first.
    const polled = bot.getUpdatesCalls;
    await bot.waitFor(() => bot.getUpdatesCalls >= polled + 3, 10_000);
    expect(bot.messages(OWNER).map((m) => String(m.text))).toEqual(["answered"]);
    expect(bot.mostPollsHeld).toBe(1);
    expect(bot.calls.filter((c) => c.method === "getMe")).toHaveLength(1);

    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
    expect(status.channelAccounts.telegram).toEqual([
      expect.objectContaining({ accountId: "alpha", running: true, problems: [] }),
      expect.objectContaining({ accountId: "work", running: false, problems: [DUPLICATE] }),
    ]);
    expect(JSON.stringify(status)).not.toContain(String(botToken));
    expect(gw.output()).not.toContain(String(botToken));
  });

  it("refuses an account a config reload adds with the token of a running one; the running one keeps its bot", { timeout: 30_000 }, async () => {
    const bot = await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "answered" }));
    const { botToken, ...shared } = telegramChannelConfig(bot, { allowFrom: [String(OWNER)] });
    const stateDir = makeTempDir();
    const configFor = (accounts: Record<string, unknown>) => fakeModelConfig(servers.model, stateDir, { channels: { telegram: { ...shared, accounts } } });
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor({ alpha: { botToken } }) } }));
    await gw.waitForOutput(/channel account started/, 10_000);

    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor({ alpha: { botToken }, work: { botToken } }));
    await gw.waitForOutput(/channel account not started/, 10_000);
    bot.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello", messageId: 1 });
    await bot.waitFor(() => bot.messages(OWNER).length === 1, 10_000);
    const polled = bot.getUpdatesCalls;
    await bot.waitFor(() => bot.getUpdatesCalls >= polled + 3, 10_000);
    expect(bot.messages(OWNER).map((m) => String(m.text))).toEqual(["answered"]);
    expect(bot.mostPollsHeld).toBe(1);
    expect(gw.output().match(/channel account started/g)).toHaveLength(1);

    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
    expect(status.channelAccounts.telegram).toEqual([
      expect.objectContaining({ accountId: "alpha", running: true, problems: [] }),
      expect.objectContaining({ accountId: "work", running: false, problems: [DUPLICATE] }),
    ]);
  });
});

const DUPLICATE =
  'channels.telegram.accounts.work has the same bot token as the account "alpha", which runs that bot (two connections to one bot take each other\'s updates); give channels.telegram.accounts.work its own botToken (or tokenFile), or remove it';
