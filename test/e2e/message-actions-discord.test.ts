import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/discord-server.js";
import type { FakeModelServer } from "../fakes/model-server.js";
import { DISCORD_DM, DISCORD_OWNER, startDiscordDmGateway, stopDiscordDmGateway } from "../helpers/discord-dm-gateway.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { chatRequests, waitUntil } from "../helpers/reliability.js";

/**
 * The message tool's react on Discord, where the bot's reactions add up: the real discord.js
 * client against a fake Discord. A reaction is taken back one emoji at a time; taking back all of
 * them (`emoji: ""`) is refused with the reason, which the model sees.
 */

const OWNER = DISCORD_OWNER;
const DM = DISCORD_DM;

let model: FakeModelServer;
let discord: FakeDiscord;
let gw: GatewayProcess;

beforeAll(async () => {
  ({ model, discord, gw } = await startDiscordDmGateway());
});
afterAll(() => stopDiscordDmGateway({ model, discord, gw }));

describe("message tool react on Discord", { timeout: 60_000 }, () => {
  it("adds to the message the turn answers, takes back one emoji, and refuses taking back all", async () => {
    model.enqueue(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍" } }] },
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍", remove: true } }] },
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "" } }] },
      { text: "Done." },
    );
    const message = discord.pushMessage({ channelId: DM, authorId: OWNER, authorName: "Owner", content: "react please" });
    await waitUntil(() => discord.messages(DM).length === 1, 15_000, "the reply");
    const reactionCalls = discord.sent
      .filter((r) => r.path.includes("/reactions/"))
      .map((r) => `${r.method === "PUT" ? "+" : "-"}${r.path.split("/messages/")[1]!.split("/")[0]} ${decodeURIComponent(r.path.split("/reactions/")[1]!.split("/")[0]!)}`);
    expect(reactionCalls).toEqual([`+${message.id} 👍`, `-${message.id} 👍`]);
    const results = chatRequests(model)
      .map((req) => lastMessageOf(req))
      .filter((m) => m.role === "tool")
      .map((m) => m.text);
    expect(results.slice(0, 2)).toEqual([`Reacted 👍 to discord ${DM} message ${message.id}.`, `Took back 👍 on discord ${DM} message ${message.id}.`]);
    expect(JSON.parse(results[2]!)).toMatchObject({
      error: "CHANNEL_ACTION_FAILED",
      message: "The react failed: discord takes back the bot's reactions one emoji at a time: name the emoji with remove: true",
    });
    expect(discord.unhandledRoutes).toEqual([]);
  });
});
