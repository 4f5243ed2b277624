import { startFakeDiscord, type FakeDiscord, waitFor } from "../fakes/discord-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import type { GatewayProcess } from "./gateway-process.js";
import { slackChannelConfig } from "./slack-channel-config.js";
import { telegramChannelConfig } from "./telegram-channel-config.js";

/** Fake Telegram, Discord and Slack servers for a test that drives all three channels. */
export interface ChannelFakes {
  telegram: FakeTelegram;
  discord: FakeDiscord;
  slack: FakeSlack;
  /** `channels` config for the three, each allowing its owner only, typing indicators off. */
  config(owners: { telegram: string; discord: string; slack: string }): Record<string, unknown>;
  /** Resolves once the gateway's three accounts are connected (Telegram polling, Discord IDENTIFY, the Slack socket). */
  connected(gw: GatewayProcess): Promise<void>;
  close(): Promise<void>;
}

export async function startChannelFakes(options: { discordBotId: string }): Promise<ChannelFakes> {
  const telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const discord = await startFakeDiscord({ botId: options.discordBotId });
  const slack = await startFakeSlack();
  return {
    telegram,
    discord,
    slack,
    config: (owners) => ({
      telegram: telegramChannelConfig(telegram, { allowFrom: [owners.telegram] }),
      discord: { token: discord.token, restApiUrl: discord.restUrl, allowFrom: [owners.discord], typingIntervalSeconds: 0 },
      slack: slackChannelConfig(slack, { allowFrom: [owners.slack] }),
    }),
    async connected(gw) {
      await gw.waitForOutput(/channel account started/, 10_000);
      await waitFor(() => discord.identifyCount === 1, 15_000, "the Discord IDENTIFY");
      await waitFor(() => slack.socketConnections > 0, 15_000, "the Slack socket");
    },
    async close() {
      await telegram.close();
      await discord.close();
      await slack.close();
    },
  };
}
