import { describe, expect, it } from "vitest";
import { useFakeServers } from "../helpers/fake-servers.js";
import { runCli } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { startSecondTelegramBot, startTwoBotGateway } from "../helpers/two-telegram-bots.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * Account order through the real gateway, with two bots on fake Bot API servers: accounts are
 * listed by account id (as OpenClaw sorts them), whatever their order in the file, so on a channel
 * with neither `defaultAccount` nor a `default` account a send that names no account goes out on
 * the first by id, and `channels status` lists them in that order.
 */

const OWNER = 111;
const servers = useFakeServers();

describe("account order", () => {
  it("a send that names no account goes out on the first account by id, not the first in the file", { timeout: 30_000 }, async () => {
    const zetaBot = await servers.startTelegram();
    const alphaBot = await startSecondTelegramBot();
    try {
      const { botToken: zetaToken, apiRoot: zetaRoot, ...shared } = telegramChannelConfig(zetaBot, { allowFrom: [String(OWNER)] });
      const gw = await startTwoBotGateway(servers, {
        ...shared,
        accounts: { zeta: { botToken: zetaToken, apiRoot: zetaRoot }, alpha: { botToken: alphaBot.token, apiRoot: alphaBot.url } },
      });
      const { sock } = await openOperator(gw.url, gw.token);
      try {
        const sent = await sock.request("send", { channel: "telegram", to: String(OWNER), message: "which bot?", idempotencyKey: "order-1" });
        expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
        expect(sent.payload).toMatchObject({ accountId: "alpha" });
      } finally {
        sock.close();
      }
      expect(alphaBot.messages(OWNER).map((m) => String(m.text))).toEqual(["which bot?"]);
      expect(zetaBot.messages(OWNER)).toEqual([]);

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
      expect(status.channelAccounts.telegram.map((a: { accountId: string }) => a.accountId)).toEqual(["alpha", "zeta"]);
      expect(status.channelDefaultAccountId).toEqual({ telegram: "alpha" });
    } finally {
      await alphaBot.close();
    }
  });
});
