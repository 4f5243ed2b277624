import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `messages.statusReactions.enabled` on Discord, where reactions add up: the real discord.js
 * client against a fake Discord. Each new status is put on the user's message and the one before
 * it taken back (`DELETE …/reactions/<emoji>/@me`), so the message carries one of the bot's
 * reactions at a time, ending with the ack emoji.
 */

const BOT = "100000000000000800";
const OWNER = "100000000000000111";
const DM = "100000000000000711";

let model: FakeModelServer;
let discord: FakeDiscord;
let gw: GatewayProcess;

beforeAll(async () => {
  model = await startFakeModelServer();
  discord = await startFakeDiscord({ botId: BOT, botName: "clawbot", guilds: [] });
  const stateDir = makeTempDir();
  const discordConfig = { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [OWNER] };
  const config = fakeModelConfig(model, stateDir, {
    channels: { discord: discordConfig },
    messages: { ackReaction: "👀", ackReactionScope: "all", statusReactions: { enabled: true } },
  });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  await gw.waitForOutput(/channel account started/, 10_000);
  await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await discord?.close();
  await model?.close();
});

describe("status reactions on Discord", { timeout: 60_000 }, () => {
  it("each status replaces the last one on the message: 👀, 🧠, ✅, then 👀 again", async () => {
    const held = holdAnswerTo(model, "hello");
    const message = discord.pushMessage({ channelId: DM, authorId: OWNER, authorName: "Owner", content: "hello" });
    const reactionCalls = () =>
      discord.sent
        .filter((r) => r.path.startsWith(`/channels/${DM}/messages/${message.id}/reactions/`))
        .map((r) => `${r.method === "PUT" ? "+" : "-"}${decodeURIComponent(r.path.split("/reactions/")[1]!.split("/")[0]!)}`);
    await held.arrived;
    await expect.poll(reactionCalls, { timeout: 10_000 }).toEqual(["+👀", "+🧠", "-👀"]);
    held.release();
    await waitUntil(() => discord.messages(DM).length === 1, 15_000, "the reply");
    await expect.poll(reactionCalls, { timeout: 10_000 }).toEqual(["+👀", "+🧠", "-👀", "+✅", "-🧠", "+👀", "-✅"]);
    expect(discord.unhandledRoutes).toEqual([]);
  });
});
