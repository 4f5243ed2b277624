import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { dmEachBot, startSecondTelegramBot, startTwoBotGateway } from "../helpers/two-telegram-bots.js";

/**
 * A top-level `channels.telegram.botToken` beside `accounts` through the real gateway: the top
 * level runs as the `default` bot next to `accounts.work` (one fake Bot API server each), both
 * answer a DM, and `channels status` lists both.
 */

const OWNER = 111;
const servers = useFakeServers();

describe("a top-level bot token beside accounts", () => {
  it('runs the top-level block as the account "default" beside accounts.work, which inherits its shared settings', { timeout: 30_000 }, async () => {
    const homeBot = await servers.startTelegram();
    const workBot = await startSecondTelegramBot();
    try {
      servers.model.setResponder(() => ({ text: "answered" }));
      const gw = await startTwoBotGateway(servers, {
        ...telegramChannelConfig(homeBot, { allowFrom: [String(OWNER)] }),
        accounts: { work: { botToken: workBot.token, apiRoot: workBot.url } },
      });

      await dmEachBot(OWNER, [
        { bot: homeBot, text: "to the top-level bot" },
        { bot: workBot, text: "to the work bot" },
      ]);
      expect(homeBot.messages(OWNER).map((m) => String(m.text))).toEqual(["answered"]);
      expect(workBot.messages(OWNER).map((m) => String(m.text))).toEqual(["answered"]);

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
      expect(status.channelAccounts.telegram).toEqual([
        expect.objectContaining({ accountId: "default", running: true, problems: [] }),
        expect.objectContaining({ accountId: "work", running: true, problems: [] }),
      ]);
      expect(status.channelDefaultAccountId).toEqual({ telegram: "default" });
    } finally {
      await workBot.close();
    }
  });

  it("does not start a named account without a token of its own, which would run the same bot; channels status says why", { timeout: 30_000 }, async () => {
    const homeBot = await servers.startTelegram();
    const stateDir = makeTempDir();
    const gw = servers.keep(
      await startGateway({
        stateDir,
        configFile: {
          name: "openclaw.json",
          content: fakeModelConfig(servers.model, stateDir, { channels: { telegram: { ...telegramChannelConfig(homeBot), accounts: { work: { dmPolicy: "open" } } } } }),
        },
      }),
    );
    await gw.waitForOutput(/channel account started/, 10_000);
    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
    expect(status.channelAccounts.telegram).toEqual([
      expect.objectContaining({ accountId: "default", running: true, problems: [] }),
      expect.objectContaining({
        accountId: "work",
        running: false,
        problems: [
          'channels.telegram.accounts.work sets no botToken or tokenFile, so it would run the same bot as the account "default" (the top-level botToken or tokenFile); give it its own botToken or tokenFile',
        ],
      }),
    ]);
  });
});
