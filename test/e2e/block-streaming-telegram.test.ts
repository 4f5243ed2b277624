import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Block streaming through a real gateway and grammY against a fake Bot API: with
 * `agents.defaults.blockStreamingDefault: on`, what the agent says before a tool goes out before
 * the tool runs, the answer arrives paragraph by paragraph while the model still writes it, and
 * the run's end sends nothing twice. `streaming.chunkMode: newline` splits a finished reply at
 * paragraph breaks only.
 */

const CHAT = 777;
/** The second test's chat: the fake Bot API keeps every chat's messages for the whole file. */
const OTHER_CHAT = 778;
const servers = useFakeServers({ telegram: true });

function gatewayConfig(stateDir: string, defaults: Record<string, unknown>, telegram: Record<string, unknown> = {}): string {
  const allowFrom = [String(CHAT), String(OTHER_CHAT)];
  const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom, ...telegram }) } }));
  Object.assign(config.agents.defaults, defaults);
  return JSON.stringify(config);
}

describe("block streaming over Telegram", { timeout: 60_000 }, () => {
  it("sends the agent's text in blocks while the run goes on, and not again at its end", async () => {
    const stateDir = makeTempDir("openclaw-block-streaming-");
    const content = gatewayConfig(stateDir, {
      blockStreamingDefault: "on",
      blockStreamingChunk: { minChars: 20, maxChars: 400 },
      blockStreamingCoalesce: { idleMs: 0 },
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const replies = () => servers.telegram.messages(CHAT).map((m) => String(m.text));

    let release!: () => void;
    const holdMidway = new Promise<void>((resolve) => (release = resolve));
    const firstParagraph = "The notes are saved now.";
    const secondParagraph = "They hold the ticket number and the date you asked me to remember for the release.";
    servers.model.enqueue(
      { text: "Let me write that down first.", toolCalls: [{ name: "write", arguments: { path: "notes.md", content: "TCK-4242\n" } }] },
      { text: `${firstParagraph}\n\n${secondParagraph}`, textChunks: 12, holdMidway },
    );
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "note TCK-4242", messageId: 1 });

    // Before the model has finished its answer: the text before the tool, then the first paragraph.
    await servers.telegram.waitFor(() => replies().length === 2, 15_000);
    expect(replies()).toEqual(["Let me write that down first.", firstParagraph]);
    release();
    await servers.telegram.waitFor(() => replies().length === 3, 15_000);
    expect(replies()[2]).toBe(secondParagraph);

    // A later answer comes next in the chat: the first run's end added nothing.
    servers.model.enqueue({ text: "pong" });
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "ping", messageId: 2 });
    await servers.telegram.waitFor(() => replies().length === 4, 15_000);
    expect(replies()).toEqual(["Let me write that down first.", firstParagraph, secondParagraph, "pong"]);
    await gateway.stop();
  });

  it("streaming.block.enabled false keeps the answer whole; chunkMode newline splits it at paragraph breaks only", async () => {
    const stateDir = makeTempDir("openclaw-block-streaming-off-");
    const content = gatewayConfig(
      stateDir,
      { blockStreamingDefault: "on", blockStreamingChunk: { minChars: 10 } },
      { textChunkLimit: 100, streaming: { chunkMode: "newline", block: { enabled: false } } },
    );
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const replies = () => servers.telegram.messages(OTHER_CHAT).map((m) => String(m.text));
    const list = "Steps:\n1. open the file\n2. change the line";
    const closing = "That is all there is to it, nothing else needs to change here at all.";
    servers.model.enqueue({ text: `${list}\n\n${closing}`, textChunks: 8 });
    servers.telegram.pushMessage({ chatId: OTHER_CHAT, fromId: OTHER_CHAT, fromName: "Owner", text: "how?", messageId: 1 });
    await servers.telegram.waitFor(() => replies().length === 2, 15_000);
    // By length the first message would take the list and the start of the closing sentence.
    expect(replies()).toEqual([list, closing]);
    await gateway.stop();
  });
});
