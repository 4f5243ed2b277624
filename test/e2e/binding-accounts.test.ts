import { describe, expect, it } from "vitest";
import { useFakeServers } from "../helpers/fake-servers.js";
import { runCli } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { dmEachBot, startSecondTelegramBot, startTwoBotGateway } from "../helpers/two-telegram-bots.js";

/**
 * A binding's `match.accountId` through the real routing path: two Telegram bots (one fake Bot
 * API server each) as two accounts of one channel, a DM to each, and the agent each DM ran under.
 */

const OWNER = 111;
const servers = useFakeServers();

describe("bindings on a channel with two accounts", () => {
  it('a binding without accountId routes the account named "default" only; accountId "*" routes every account', { timeout: 30_000 }, async () => {
    const homeBot = await servers.startTelegram();
    const workBot = await startSecondTelegramBot();
    try {
      servers.model.setResponder(() => ({ text: "routed" }));
      const gw = await startTwoBotGateway(
        servers,
        {
          accounts: {
            default: telegramChannelConfig(homeBot, { allowFrom: [String(OWNER)] }),
            work: telegramChannelConfig(workBot, { allowFrom: [String(OWNER)] }),
          },
        },
        {
          agents: { list: [{ id: "main", default: true }, { id: "every" }, { id: "plain" }] },
          bindings: [
            { agentId: "every", match: { channel: "telegram", accountId: "*" } },
            { agentId: "plain", match: { channel: "telegram" } },
          ],
        },
      );

      await dmEachBot(OWNER, [
        { bot: homeBot, text: "to the home bot" },
        { bot: workBot, text: "to the work bot" },
      ]);

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const sessions = JSON.parse((await runCli(["sessions", "--json"], env)).output).sessions as { key: string; lastAccountId?: string }[];
      const byAgent = Object.fromEntries(sessions.map((s) => [s.key, s.lastAccountId]));
      expect(byAgent).toEqual({ "agent:plain:main": "default", "agent:every:main": "work" });
    } finally {
      await workBot.close();
    }
  });
});
