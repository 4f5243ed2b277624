import { describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { sleep } from "../helpers/reliability.js";

/**
 * Two Discord accounts with the same token through the real gateway, on one fake Discord: only the
 * first by account id opens a gateway session (one IDENTIFY), the other is refused in `channels status`.
 */

const servers = useFakeServers();

describe("two Discord accounts with the same token", () => {
  it("opens one gateway session, for the first by account id; the other is refused", { timeout: 30_000 }, async () => {
    const discord = await startFakeDiscord({ botName: "clawbot", heartbeatIntervalMs: 500 });
    try {
      const stateDir = makeTempDir();
      const token = discord.token;
      const channels = { discord: { restApiUrl: discord.restUrl, typingIntervalSeconds: 0, accounts: { work: { token }, alpha: { token } } } };
      const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels }) } }));
      await gw.waitForOutput(/channel account started/, 10_000);
      await gw.waitForOutput(/channel account not started/, 10_000);
      // A second session would IDENTIFY right after the first.
      await sleep(1_000);
      expect(discord.identifyCount).toBe(1);

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
      expect(status.channelAccounts.discord).toEqual([
        expect.objectContaining({ accountId: "alpha", running: true, problems: [] }),
        expect.objectContaining({
          accountId: "work",
          running: false,
          problems: [
            'channels.discord.accounts.work has the same bot token as the account "alpha", which runs that bot (two connections to one bot take each other\'s updates); give channels.discord.accounts.work its own token, or remove it',
          ],
        }),
      ]);
      expect(gw.output()).not.toContain(token);
    } finally {
      await discord.close();
    }
  });
});
