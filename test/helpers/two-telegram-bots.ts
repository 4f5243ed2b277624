import path from "node:path";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import type { FakeServers } from "./fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";

/** The second bot of a channel with two accounts, on a fake Bot API server of its own; the caller closes it. */
export function startSecondTelegramBot(): Promise<FakeTelegram> {
  return startFakeTelegram({ token: "654321:TEST-second-bot-token", botId: 654321, botUsername: "fake_work_bot" });
}

/**
 * A gateway on the file's fake model whose `channels.telegram` block is `telegram` (two bots'
 * accounts), with `more` config beside it, once both accounts have started. `servers` kills it after the test.
 */
export async function startTwoBotGateway(servers: FakeServers, telegram: Record<string, unknown>, more: Record<string, unknown> = {}): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const agents = { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } } };
  const { agents: moreAgents, ...rest } = more as { agents?: Record<string, unknown> };
  const config = { channels: { telegram }, agents: { ...agents, ...moreAgents }, ...rest };
  const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, config) } }));
  await gw.waitForOutput(/channel account started[\s\S]*channel account started/, 10_000);
  return gw;
}

/** `owner` sends one DM to each bot in turn; resolves once each bot has sent that chat its one reply. */
export async function dmEachBot(owner: number, bots: { bot: FakeTelegram; text: string }[]): Promise<void> {
  for (const { bot, text } of bots) {
    bot.pushMessage({ chatId: owner, fromId: owner, text, messageId: 1 });
    await bot.waitFor(() => bot.messages(owner).length === 1, 10_000);
  }
}
