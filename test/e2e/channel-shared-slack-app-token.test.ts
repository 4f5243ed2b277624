import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { sleep } from "../helpers/reliability.js";

/**
 * Two Slack accounts in Socket Mode with different bot tokens but one app token, through the real
 * gateway on one fake Slack: Slack gives each event of an app to one of its Socket Mode
 * connections, so only the first by account id opens one; the other is refused in `channels status`.
 * An account that cannot start anyway (no bot token) holds no app token.
 */

const servers = useFakeServers();
const OTHER_BOT_TOKEN = "xoxb-other-workspace-bot-token";

describe("two Slack accounts with the same app token", () => {
  it("opens one Socket Mode connection, for the first by account id; the other is refused", { timeout: 30_000 }, async () => {
    const slack = await startFakeSlack({ otherBotTokens: [OTHER_BOT_TOKEN] });
    try {
      const stateDir = makeTempDir();
      const { appToken } = slack;
      const accounts = { work: { botToken: slack.botToken, appToken }, alpha: { botToken: OTHER_BOT_TOKEN, appToken }, aaa: { appToken } };
      const channels = { slack: { slackApiUrl: slack.apiUrl, accounts } };
      const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels }) } }));
      await gw.waitForOutput(/channel account started/, 10_000);
      await gw.waitForOutput(/channel account not started/, 10_000);
      // A second account would open its socket right after the first.
      await sleep(1_000);
      expect(slack.socketConnections).toBe(1);

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
      const byId = Object.fromEntries((status.channelAccounts.slack as { accountId: string }[]).map((a) => [a.accountId, a]));
      expect(byId).toEqual({
        aaa: expect.objectContaining({ running: false, problems: [expect.stringContaining("Slack needs a bot token")] }),
        alpha: expect.objectContaining({ running: true, problems: [] }),
        work: expect.objectContaining({
          running: false,
          problems: [
            "channels.slack.accounts.work has the same appToken as the account \"alpha\", which opens the Slack app's Socket Mode connection with it (Slack gives each of an app's events to one of its connections, so each account would miss events meant for the other); give channels.slack.accounts.work the appToken of a Slack app of its own, or remove it",
          ],
        }),
      });
      expect(JSON.stringify(status)).not.toContain(appToken);
      expect(gw.output()).not.toContain(appToken);
    } finally {
      await slack.close();
    }
  });
});
