import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/discord-server.js";
import type { FakeModelServer } from "../fakes/model-server.js";
import { DISCORD_DM, DISCORD_OWNER, startDiscordDmGateway, stopDiscordDmGateway } from "../helpers/discord-dm-gateway.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `messages.statusReactions.enabled` on Discord, where reactions add up: the real discord.js
 * client against a fake Discord. Each new status is put on the user's message and the one before
 * it taken back (`DELETE …/reactions/<emoji>/@me`), so the message carries one of the bot's
 * reactions at a time, ending with the ack emoji.
 */

const OWNER = DISCORD_OWNER;
const DM = DISCORD_DM;

let model: FakeModelServer;
let discord: FakeDiscord;
let gw: GatewayProcess;

beforeAll(async () => {
  ({ model, discord, gw } = await startDiscordDmGateway({
    edit: (config) => Object.assign(config, { messages: { ackReaction: "👀", ackReactionScope: "all", statusReactions: { enabled: true } } }),
  }));
});
afterAll(() => stopDiscordDmGateway({ model, discord, gw }));

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
