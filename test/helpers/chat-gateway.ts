import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer, type FakeModelServer, type FakeReply, type RecordedRequest } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";
import { waitUntil } from "./reliability.js";
import { slackChannelConfig } from "./slack-channel-config.js";

/**
 * A gateway on the fake model with `config` (its `channels`, `commands`, `tools`, …) in a fresh
 * state dir; resolves once a channel account has started.
 */
export async function startChatGateway(model: FakeModelServer, config: Record<string, unknown>): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, config) } });
  await gw.waitForOutput(/channel account started/, 15_000);
  return gw;
}

/** What a chat gateway test holds: the fake model answering as `responder`, the platform fake, and how to stop them all. */
export interface ChatSetup<Platform> {
  model: FakeModelServer;
  platform: Platform;
  close(): Promise<void>;
}

interface ChatSetupOptions {
  /** The owner's platform user id: in `commands.ownerAllowFrom` and the account's `allowFrom`. */
  owner: string;
  responder(req: RecordedRequest): FakeReply;
  /** Added to (and winning over) the account's settings. */
  settings?: Record<string, unknown>;
  /** Added to the top-level config (`tools`, …). */
  config?: Record<string, unknown>;
}

/** A gateway with a Discord account on the fake: one server channel, no @mention needed there; resolves once it has identified. */
export async function startDiscordChat(options: ChatSetupOptions & { botId: string; guildId: string; channelId: string }): Promise<ChatSetup<FakeDiscord>> {
  const model = await startFakeModelServer();
  model.setResponder(options.responder);
  const discord = await startFakeDiscord({
    botId: options.botId,
    botName: "clawbot",
    guilds: [{ id: options.guildId, name: "Claw Guild", channels: [{ id: options.channelId, name: "ops", type: 0 }] }],
  });
  const account = {
    token: discord.token,
    restApiUrl: discord.restUrl,
    typingIntervalSeconds: 0,
    allowFrom: [options.owner],
    guilds: { [options.guildId]: { requireMention: false } },
    ...options.settings,
  };
  const gw = await startChatGateway(model, { channels: { discord: account }, commands: { ownerAllowFrom: [`discord:${options.owner}`] }, ...options.config });
  await waitUntil(() => discord.identifyCount > 0, 30_000, "the Discord IDENTIFY");
  return { model, platform: discord, close: () => closeAll(gw, discord, model) };
}

/** A gateway with a Slack account (Socket Mode) on the fake, every channel admitted; resolves once the socket is open. */
export async function startSlackChat(options: ChatSetupOptions): Promise<ChatSetup<FakeSlack>> {
  const model = await startFakeModelServer();
  model.setResponder(options.responder);
  const slack = await startFakeSlack();
  const account = slackChannelConfig(slack, { allowFrom: [options.owner], channels: { "*": {} }, ...options.settings });
  const gw = await startChatGateway(model, { channels: { slack: account }, commands: { ownerAllowFrom: [`slack:${options.owner}`] }, ...options.config });
  await waitUntil(() => slack.socketConnections > 0, 10_000, "the Socket Mode connection");
  return { model, platform: slack, close: () => closeAll(gw, slack, model) };
}

async function closeAll(gw: GatewayProcess, platform: { close(): Promise<void> }, model: FakeModelServer): Promise<void> {
  await gw.stop();
  await platform.close();
  await model.close();
}
