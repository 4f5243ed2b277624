import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/discord-server.js";
import type { FakeModelServer } from "../fakes/model-server.js";
import { DISCORD_DM, DISCORD_OWNER, startDiscordDmGateway, stopDiscordDmGateway } from "../helpers/discord-dm-gateway.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * Block streaming on Discord, the real discord.js client against a fake Discord:
 * `channels.discord.streaming.block.enabled: true` turns it on there (the agent's default alone
 * does not: block-streaming-settings.test.ts), with the channel's own `coalesce`.
 */

const OWNER = DISCORD_OWNER;
const DM = DISCORD_DM;

let model: FakeModelServer;
let discord: FakeDiscord;
let gw: GatewayProcess;

beforeAll(async () => {
  ({ model, discord, gw } = await startDiscordDmGateway({
    discord: { streaming: { block: { enabled: true, coalesce: { minChars: 10, idleMs: 0 } } } },
    edit: (config) => Object.assign(config.agents.defaults, { blockStreamingChunk: { minChars: 10, maxChars: 300 } }),
  }));
});
afterAll(() => stopDiscordDmGateway({ model, discord, gw }));

const replies = () => discord.messages(DM).map((m) => String(m.content));

describe("block streaming on Discord", { timeout: 60_000 }, () => {
  it("the text before a tool and each paragraph of the answer go out as blocks, and nothing more at the end", async () => {
    model.enqueue(
      { text: "Looking at it now.", toolCalls: [{ name: "write", arguments: { path: "b.md", content: "b\n" } }] },
      { text: "Part one of the answer.\n\nPart two of the answer.", textChunks: 6 },
    );
    discord.pushMessage({ channelId: DM, authorId: OWNER, authorName: "Owner", content: "first" });
    await waitUntil(() => replies().length === 3, 15_000, "the streamed reply");
    expect(replies()).toEqual(["Looking at it now.", "Part one of the answer.", "Part two of the answer."]);
    model.enqueue({ text: "pong" });
    discord.pushMessage({ channelId: DM, authorId: OWNER, authorName: "Owner", content: "ping" });
    await waitUntil(() => replies().length === 4, 15_000, "the next reply");
    expect(replies()[3]).toBe("pong");
    expect(discord.unhandledRoutes).toEqual([]);
  });
});
