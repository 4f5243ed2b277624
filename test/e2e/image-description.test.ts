import { createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { imageSize } from "../../src/agents/media/image-dimensions.js";
import { waitFor } from "../fakes/discord-server.js";
import type { RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useTelegramGateway } from "../helpers/telegram-gateway.js";

/**
 * A photo for an agent whose model takes no images, through the real grammY client and a fake Bot
 * API: the image goes to the `tools.media` image model (a vision model on the fake model server)
 * with the configured prompt, and the agent's model reads OpenClaw's `[Image]` block.
 */
const OWNER = 5151;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
let messageId = 1;

const modelOf = (request: RecordedRequest) => (request.body as { model?: string }).model;

const fixture = useTelegramGateway({
  config: ({ model, telegram, stateDir }) => {
    const config = JSON.parse(fakeModelConfig(model, stateDir, { channels: { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) } }));
    config.models.providers.fake.models.push({ id: "vision-model", input: ["text", "image"], contextWindow: 32000, maxTokens: 1024 });
    config.tools = { media: { models: [{ provider: "fake", model: "vision-model", capabilities: ["image"], prompt: "What is in the picture?", maxChars: 30 }] } };
    model.setResponder((req) => ({ text: modelOf(req) === "vision-model" ? "A red bicycle leaning on a brick wall in the rain." : `model: ${lastUserText(req)}` }));
    return config;
  },
});

describe("images for a model that takes none", { timeout: 60_000 }, () => {
  it("are described by the image model, and the agent reads the [Image] block with the caption", async () => {
    const before = fixture.model.requests.length;
    const photo = fixture.telegram.addFile(PNG, "photos/file_20.jpg");
    fixture.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "what do you see?", photo, messageId: messageId++ });
    await waitFor(() => fixture.model.requests.slice(before).some((r) => modelOf(r) === "fake-model"), 15_000, "the agent's request");

    const sent = fixture.model.requests.slice(before);
    const vision = sent.find((r) => modelOf(r) === "vision-model")!;
    const content = (vision.body as { messages: { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[] }).messages.at(-1)!.content;
    expect(content[0]).toEqual({ type: "text", text: "What is in the picture?" });
    expect(content[1]!.image_url!.url).toBe(`data:image/jpeg;base64,${PNG.toString("base64")}`);

    const agent = sent.find((r) => modelOf(r) === "fake-model")!;
    expect(lastUserText(agent)).toMatch(
      /^\[Image\]\nUser text:\nwhat do you see\?\nDescription:\nA red bicycle leaning on a bri\n\[media attached: \S+\.jpg \(image, image\/jpeg, 308 B\)\]$/,
    );
    expect(sent.indexOf(vision)).toBeLessThan(sent.indexOf(agent));
  });

  it("a photo over agents.defaults.imageMaxDimensionPx (1200) reaches the image model scaled to it", async () => {
    const canvas = createCanvas(2400, 1600);
    canvas.getContext("2d").fillRect(0, 0, 2400, 1600);
    const before = fixture.model.requests.length;
    const photo = fixture.telegram.addFile(canvas.encodeSync("jpeg", 80), "photos/file_21.jpg");
    fixture.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "and this?", photo, messageId: messageId++ });
    await waitFor(() => fixture.model.requests.slice(before).some((r) => modelOf(r) === "fake-model"), 15_000, "the agent's request");
    const vision = fixture.model.requests.slice(before).find((r) => modelOf(r) === "vision-model")!;
    const url = (vision.body as { messages: { content: { image_url?: { url: string } }[] }[] }).messages.at(-1)!.content[1]!.image_url!.url;
    expect(url.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(imageSize(Buffer.from(url.slice("data:image/jpeg;base64,".length), "base64"))).toEqual({ width: 1200, height: 800 });
  });
});
