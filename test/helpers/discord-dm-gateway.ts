import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";
import { waitUntil } from "./reliability.js";

/** The bot, its owner (the one allowed sender) and their DM channel on the fake Discord. */
export const DISCORD_BOT = "100000000000000800";
export const DISCORD_OWNER = "100000000000000111";
export const DISCORD_DM = "100000000000000711";

export interface DiscordDmGateway {
  model: FakeModelServer;
  discord: FakeDiscord;
  gw: GatewayProcess;
}

/**
 * A gateway whose Discord account (the real discord.js client against a fake Discord, no guilds)
 * takes DMs from the owner, with the fake model: started once the account has identified.
 * `discord` adds to the account's config; `edit` changes the whole config before it is written.
 */
export async function startDiscordDmGateway(options: { discord?: Record<string, unknown>; edit?: (config: Record<string, any>) => void } = {}): Promise<DiscordDmGateway> {
  const model = await startFakeModelServer();
  const discord = await startFakeDiscord({ botId: DISCORD_BOT, botName: "clawbot", guilds: [] });
  const stateDir = makeTempDir();
  const discordConfig = { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [DISCORD_OWNER], ...options.discord };
  const config = JSON.parse(fakeModelConfig(model, stateDir, { channels: { discord: discordConfig } }));
  options.edit?.(config);
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  await gw.waitForOutput(/channel account started/, 10_000);
  await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
  return { model, discord, gw };
}

export async function stopDiscordDmGateway(started: Partial<DiscordDmGateway>): Promise<void> {
  await started.gw?.stop("SIGKILL");
  await started.discord?.close();
  await started.model?.close();
}
