import { describe, expect, it } from "vitest";
import type { RunningAccount } from "../../../../src/channels/dispatch/running-account.js";
import { blockStreamingFor } from "../../../../src/channels/outbound/block-streaming-settings.js";
import type { BlockStreamingTraits, ChannelAccount } from "../../../../src/channels/types.js";
import { applyDefaults } from "../../../../src/config/defaults.js";

const config = (raw: Record<string, unknown>) => applyDefaults(raw as never);
const telegramTraits: BlockStreamingTraits = { followsAgentDefault: true };
const discordTraits: BlockStreamingTraits = { coalesce: { minChars: 1500, idleMs: 1000 } };

function running(traits: BlockStreamingTraits, channelConfig: Record<string, unknown> = {}, textChunkLimit = 4000): RunningAccount {
  return {
    channel: "telegram",
    accountId: "default",
    config: channelConfig,
    account: { editMessage: async () => {} } as unknown as ChannelAccount,
    limits: { textChunkLimit },
    blockStreaming: traits,
    status: { accountId: "default", running: true, connected: true } as RunningAccount["status"],
  };
}

const on = { agents: { defaults: { blockStreamingDefault: "on" } } };

describe("blockStreamingFor", () => {
  it("off by default; blockStreamingDefault on turns it on where the platform follows it (Telegram), not elsewhere", () => {
    expect(blockStreamingFor(config({}), running(telegramTraits), "main")).toBeUndefined();
    expect(blockStreamingFor(config(on), running(telegramTraits), "main")).toBeDefined();
    expect(blockStreamingFor(config(on), running(discordTraits), "main")).toBeUndefined();
    expect(blockStreamingFor(config({}), running(discordTraits, { streaming: { block: { enabled: true } } }), "main")).toBeDefined();
  });

  it("a configured answer preview wins over the inherited default; an explicit block.enabled wins over both", () => {
    expect(blockStreamingFor(config(on), running(telegramTraits, { streaming: { mode: "partial" } }), "main")).toBeUndefined();
    expect(blockStreamingFor(config(on), running(telegramTraits, { streaming: { mode: "progress" } }), "main")).toBeUndefined();
    expect(blockStreamingFor(config(on), running(telegramTraits, { streaming: { mode: "partial", block: { enabled: true } } }), "main")).toBeDefined();
    expect(blockStreamingFor(config(on), running(telegramTraits, { streaming: { block: { enabled: false } } }), "main")).toBeUndefined();
  });

  it("defaults: blocks of 800-1200 characters at paragraph breaks, merged after 1 s idle, text_end, no pause", () => {
    expect(blockStreamingFor(config(on), running(telegramTraits), "main")).toEqual({
      breakAt: "text_end",
      chunking: { minChars: 800, maxChars: 1200, breakPreference: "paragraph", flushOnParagraph: false },
      coalescing: { minChars: 800, maxChars: 1200, idleMs: 1000, joiner: "\n\n" },
    });
  });

  it("clamps to the channel's textChunkLimit, takes the platform's coalescing defaults, and the channel's coalesce over the agent's", () => {
    const discord = blockStreamingFor(config({}), running(discordTraits, { streaming: { block: { enabled: true } } }, 1000), "main")!;
    expect(discord.chunking).toMatchObject({ minChars: 800, maxChars: 1000 });
    expect(discord.coalescing).toMatchObject({ minChars: 1000, maxChars: 1000, idleMs: 1000 });
    const raw = { agents: { defaults: { blockStreamingCoalesce: { idleMs: 300 }, blockStreamingChunk: { breakPreference: "sentence" }, blockStreamingBreak: "message_end" } } };
    const own = blockStreamingFor(
      config(raw),
      running(discordTraits, { streaming: { chunkMode: "newline", block: { enabled: true, coalesce: { idleMs: 0, minChars: 5 } } } }),
      "main",
    )!;
    expect(own).toMatchObject({ breakAt: "message_end", chunking: { breakPreference: "sentence", flushOnParagraph: true }, coalescing: { minChars: 5, idleMs: 0, joiner: " " } });
    const agentCoalesce = blockStreamingFor(config(raw), running(discordTraits, { streaming: { block: { enabled: true } } }), "main")!;
    expect(agentCoalesce.coalescing).toMatchObject({ idleMs: 300, minChars: 1200 });
  });

  it("humanDelay: natural is 800-2500 ms, custom its own range, the agent's over the defaults'", () => {
    const raw = {
      agents: {
        defaults: { blockStreamingDefault: "on", humanDelay: { mode: "natural" } },
        entries: { main: { default: true }, calm: { humanDelay: { mode: "custom", minMs: 100, maxMs: 200 } } },
      },
    };
    expect(blockStreamingFor(config(raw), running(telegramTraits), "main")?.humanDelay).toEqual({ minMs: 800, maxMs: 2500 });
    expect(blockStreamingFor(config(raw), running(telegramTraits), "calm")?.humanDelay).toEqual({ minMs: 100, maxMs: 200 });
  });
});
