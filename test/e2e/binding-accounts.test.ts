import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A binding's `match.accountId` through the real routing path: two Telegram bots (one fake Bot
 * API server each) as two accounts of one channel, a DM to each, and the agent each DM ran under.
 */

const OWNER = 111;
const servers = useFakeServers();

describe("bindings on a channel with two accounts", () => {
  it('a binding without accountId routes the account named "default" only; accountId "*" routes every account', { timeout: 30_000 }, async () => {
    const homeBot = await servers.startTelegram();
    const workBot = await startFakeTelegram({ token: "654321:TEST-second-bot-token", botId: 654321, botUsername: "fake_work_bot" });
    try {
      servers.model.setResponder(() => ({ text: "routed" }));
      const stateDir = makeTempDir();
      const gw = servers.keep(
        await startGateway({
          stateDir,
          configFile: {
            name: "openclaw.json",
            content: fakeModelConfig(servers.model, stateDir, {
              channels: {
                telegram: {
                  accounts: {
                    default: telegramChannelConfig(homeBot, { allowFrom: [String(OWNER)] }),
                    work: telegramChannelConfig(workBot, { allowFrom: [String(OWNER)] }),
                  },
                },
              },
              agents: {
                defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } },
                list: [{ id: "main", default: true }, { id: "every" }, { id: "plain" }],
              },
              bindings: [
                { agentId: "every", match: { channel: "telegram", accountId: "*" } },
                { agentId: "plain", match: { channel: "telegram" } },
              ],
            }),
          },
        }),
      );
      await gw.waitForOutput(/channel account started[\s\S]*channel account started/, 10_000);

      homeBot.pushMessage({ chatId: OWNER, fromId: OWNER, text: "to the home bot", messageId: 1 });
      await homeBot.waitFor(() => homeBot.messages(OWNER).length === 1, 10_000);
      workBot.pushMessage({ chatId: OWNER, fromId: OWNER, text: "to the work bot", messageId: 1 });
      await workBot.waitFor(() => workBot.messages(OWNER).length === 1, 10_000);

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const sessions = JSON.parse((await runCli(["sessions", "--json"], env)).output).sessions as { key: string; lastAccountId?: string }[];
      const byAgent = Object.fromEntries(sessions.map((s) => [s.key, s.lastAccountId]));
      expect(byAgent).toEqual({ "agent:plain:main": "default", "agent:every:main": "work" });
    } finally {
      await workBot.close();
    }
  });
});
