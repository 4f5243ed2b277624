import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeDiscord, waitFor } from "../fakes/discord-server.js";
import type { FakeSlack } from "../fakes/slack-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { RecordedRequest } from "../fakes/model-server/types.js";
import type { FakeTelegram } from "../fakes/telegram-server.js";
import { startChannelFakes, type ChannelFakes } from "../helpers/channel-fakes.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { visionProvider } from "../helpers/vision-models.js";

/**
 * Inbound images as image input: a model whose `input` lists "image" gets the chat's image as an
 * image block after the message text (OpenAI wire: `image_url` with a data URL; Anthropic wire: a
 * base64 `image` block), in the turn that answers the message only; a text-only model gets the
 * path line alone. Real grammY, discord.js and bolt against the fake platforms; the fake model
 * server records what each wire received.
 */
const OWNER = 992;
const DISCORD_BOT = "100000000000004800";
const DISCORD_OWNER = "100000000000004110";
const DISCORD_DM = "100000000000004710";
const SLACK_OWNER = "U401";
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 9)]);
let model: FakeModelServer;
let fakes: ChannelFakes;
let telegram: FakeTelegram;
let discord: FakeDiscord;
let slack: FakeSlack;
let gw: GatewayProcess;
let stateDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder(() => ({ text: "I see it" }));
  fakes = await startChannelFakes({ discordBotId: DISCORD_BOT });
  ({ telegram, discord, slack } = fakes);
  stateDir = makeTempDir();
  const window = { contextWindow: 120000, maxTokens: 4096 };
  const config = {
    agents: {
      defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "openai-like/vision" } },
      list: [
        { id: "main", default: true },
        { id: "claude", model: { primary: "anthropic-like/vision" } },
        { id: "blind", model: { primary: "openai-like/text-only" } },
      ],
    },
    bindings: [
      { agentId: "claude", match: { channel: "discord" } },
      { agentId: "blind", match: { channel: "slack" } },
    ],
    models: {
      providers: {
        "openai-like": visionProvider(model.url),
        "anthropic-like": { baseUrl: model.url, apiKey: "sk-fake", api: "anthropic-messages", models: [{ id: "vision", input: ["text", "image"], ...window }] },
      },
    },
    channels: fakes.config({ telegram: String(OWNER), discord: DISCORD_OWNER, slack: SLACK_OWNER }),
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  await fakes.connected(gw);
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await fakes?.close();
  await model?.close();
});

/** The user messages of the next model request to `wirePath` after `push`. */
async function userMessagesFor(wirePath: string, push: () => void): Promise<any[]> {
  const requests = () => model.requests.filter((r: RecordedRequest) => r.path === wirePath);
  const before = requests().length;
  push();
  await waitFor(() => requests().length > before, 15_000, `the model request to ${wirePath}`);
  return requests()
    .at(-1)!
    .body.messages.filter((m: any) => m.role === "user");
}

const ATTACHED = /^\[media attached: \S+ \(image[^)]*\)\]$/m;

describe("inbound images as image input", () => {
  it("a Telegram photo reaches an image model on the OpenAI wire as an image_url data URL after the text, for that turn only", async () => {
    const photo = telegram.addFile(PNG, "photos/file_9.jpg");
    const users = await userMessagesFor("/v1/chat/completions", () => telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "what is this?", photo, messageId: 1 }));
    const content = users.at(-1)!.content;
    expect(content).toHaveLength(2);
    expect(content[0].type).toBe("text");
    expect(content[0].text.split("\n")[0]).toBe("what is this?");
    expect(content[0].text).toMatch(ATTACHED);
    expect(content[1]).toEqual({ type: "image_url", image_url: { url: `data:image/jpeg;base64,${PNG.toString("base64")}` } });

    // The next turn's history has the message as text: the image is not sent again.
    await telegram.waitFor(() => telegram.messages(OWNER).some((m) => m.text === "I see it"), 15_000);
    const next = await userMessagesFor("/v1/chat/completions", () => telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "thanks", messageId: 2 }));
    expect(next.at(-1)!.content).toBe("thanks");
    expect(typeof next.at(-2)!.content).toBe("string");
    expect(next.at(-2)!.content).toMatch(ATTACHED);
    await telegram.waitFor(() => telegram.messages(OWNER).filter((m) => m.text === "I see it").length === 2, 15_000);
  });

  it("a photo that arrives while the session is busy reaches the model in the turn that takes it", async () => {
    const second = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(64, 4)]);
    const chatRequests = () => model.requests.filter((r: RecordedRequest) => r.path === "/v1/chat/completions");
    let release!: () => void;
    model.enqueue({ text: "busy answer", holdMidway: new Promise<void>((resolve) => (release = resolve)) });
    const before = chatRequests().length;
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "start something", messageId: 3 });
    await waitFor(() => chatRequests().length > before, 15_000, "the held model request");
    const photo = telegram.addFile(second, "photos/file_10.jpg");
    const update = telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "meanwhile, this", photo, messageId: 4 });
    // Telegram's offset moves past the photo once the gateway has it on disk, waiting for the busy session.
    await telegram.waitFor(() => telegram.getUpdatesOffsets.some((o) => o !== undefined && o > (update.update_id as number)), 15_000);
    release();
    const dataUrl = `data:image/jpeg;base64,${second.toString("base64")}`;
    await waitFor(() => chatRequests().some((r) => JSON.stringify(r.body.messages).includes(dataUrl)), 15_000, "the photo as image input");
    const carrying = chatRequests().find((r) => JSON.stringify(r.body.messages).includes(dataUrl))!;
    const user = carrying.body.messages.filter((m: any) => m.role === "user" && Array.isArray(m.content)).at(-1);
    expect(user.content[0].text).toMatch(/meanwhile, this/);
    expect(user.content.at(-1)).toEqual({ type: "image_url", image_url: { url: dataUrl } });
  });

  it("a Discord image attachment reaches an image model on the Anthropic wire as a base64 image block", async () => {
    const users = await userMessagesFor("/v1/messages", () =>
      discord.pushMessage({ channelId: DISCORD_DM, authorId: DISCORD_OWNER, content: "and this?", files: [{ filename: "shot.png", bytes: PNG, contentType: "image/png" }] }),
    );
    const blocks = users.at(-1)!.content as any[];
    const text = blocks
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    expect(text.split("\n")[0]).toBe("and this?");
    expect(text).toMatch(ATTACHED);
    // The last block may carry the prompt-cache marker; the image is what matters.
    expect(blocks.filter((b) => b.type === "image")).toEqual([
      expect.objectContaining({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } }),
    ]);
  });

  it("a Slack image file goes to a text-only model as the path line alone", async () => {
    const file = slack.addFile(PNG, "diagram.png", "image/png");
    const ts = `${Math.floor(Date.now() / 1000)}.000300`;
    const users = await userMessagesFor("/v1/chat/completions", () =>
      slack.pushEvent({ type: "message", subtype: "file_share", channel: "D401", channel_type: "im", user: SLACK_OWNER, text: "a diagram", ts, event_ts: ts, files: [file] }),
    );
    const content = users.at(-1)!.content;
    expect(typeof content).toBe("string");
    expect(content.split("\n")[0]).toBe("a diagram");
    expect(content).toMatch(ATTACHED);
  });
});
