import fs from "node:fs";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { imageSize } from "../../src/agents/media/image-dimensions.js";
import { askAndWait } from "../helpers/chat-session.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { chatRequests, lastMessageOf } from "../helpers/model-request.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { waitUntil } from "../helpers/reliability.js";
import { visionProvider } from "../helpers/vision-models.js";

/**
 * `agents.defaults.imageMaxDimensionPx`: an image a message or a tool result brings is scaled so
 * its longest side is at most that many pixels before the model gets it, in its own format; one
 * that fits goes as it was. Real gateway (the shrinker is its own child process), real images.
 */
const fakes = useFakeModelGateway({
  operator: true,
  configure: (config: any) => {
    config.models.providers.fake = visionProvider(config.models.providers.fake.baseUrl.replace(/\/v1$/, ""));
    config.agents.defaults.model = { primary: "fake/vision" };
    config.agents.defaults.imageMaxDimensionPx = 600;
  },
});

function picture(width: number, height: number, format: "png" | "jpeg"): Buffer {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#2a6";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#fff";
  ctx.fillRect(width / 4, height / 4, width / 2, height / 2);
  return format === "png" ? canvas.encodeSync("png") : canvas.encodeSync("jpeg", 90);
}

/** The image parts of the request's messages, decoded from their data URLs. */
function imagesOf(request: { body: any }): { mimeType: string; bytes: Buffer }[] {
  return request.body.messages
    .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    .filter((part: any) => part.type === "image_url")
    .map((part: any) => {
      const [, mimeType, data] = /^data:([^;]+);base64,(.*)$/.exec(part.image_url.url)!;
      return { mimeType: mimeType!, bytes: Buffer.from(data!, "base64") };
    });
}

describe("imageMaxDimensionPx", () => {
  it("a tool's image over the limit reaches the model scaled to it, in its own format; one that fits is unchanged", async () => {
    const workspace = path.join(fakes.stateDir, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, "wide.png"), picture(2000, 1000, "png"));
    const small = picture(300, 200, "png");
    fs.writeFileSync(path.join(workspace, "small.png"), small);
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "look at both") return { toolCalls: [{ name: "view_image", arguments: { paths: ["wide.png", "small.png"] } }] };
      return { text: "seen" };
    });
    const reply = await askAndWait(fakes.sock, "shrink-tool", "look at both", 30_000);
    expect(reply.payload.message.content[0].text).toBe("seen");
    const after = chatRequests(fakes.model.requests).find((r) => lastMessageOf(r).text.startsWith("Images returned by the tools above"))!;
    const images = imagesOf(after);
    expect(images.map((image) => image.mimeType)).toEqual(["image/png", "image/png"]);
    expect(imageSize(images[0]!.bytes)).toEqual({ width: 600, height: 300 });
    expect(images[1]!.bytes).toEqual(small);
  });

  it("an image that says it is large but does not decode goes as it was, the gateway keeps serving, and its log says why", async () => {
    const workspace = path.join(fakes.stateDir, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    const header = picture(2000, 1000, "png").subarray(0, 33);
    const broken = Buffer.concat([header, Buffer.alloc(200, 7)]);
    fs.writeFileSync(path.join(workspace, "broken.png"), broken);
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "look at the broken one") return { toolCalls: [{ name: "view_image", arguments: { path: "broken.png" } }] };
      return { text: "hmm" };
    });
    await askAndWait(fakes.sock, "shrink-broken", "look at the broken one", 30_000);
    const after = chatRequests(fakes.model.requests).find((r) => lastMessageOf(r).text.startsWith("Images returned by the tools above"))!;
    expect(imagesOf(after)[0]!.bytes).toEqual(broken);
    // Its decoder crashes on this file: the shrinker's own process, not the gateway, goes down.
    await waitUntil(() => fakes.gw.output().includes("view_image's image went to the model at full size: "), 10_000, "the warning");
  });

  it("a message's photo over the limit reaches the model scaled to it as a JPEG", async () => {
    const photo = picture(1600, 1200, "jpeg");
    fakes.model.setResponder(() => ({ text: "a photo" }));
    const before = fakes.model.requests.length;
    const sent = await fakes.sock.request("chat.send", {
      sessionKey: "shrink-photo",
      message: "what is this",
      idempotencyKey: "shrink-photo-1",
      attachments: [{ type: "image", mimeType: "image/jpeg", fileName: "photo.jpg", content: photo.toString("base64") }],
    });
    expect(sent.ok).toBe(true);
    await waitUntil(() => chatRequests(fakes.model.requests.slice(before)).length > 0, 30_000, "the model request");
    const [image] = imagesOf(chatRequests(fakes.model.requests.slice(before))[0]!);
    expect(image!.mimeType).toBe("image/jpeg");
    expect(imageSize(image!.bytes)).toEqual({ width: 600, height: 450 });
  });

  it("a photo steered into a running turn reaches the model scaled too", async () => {
    const sessionKey = "shrink-steer";
    // A tool call first, so the turn makes a second model call, where the steered message joins.
    const first = holdAnswerTo(fakes.model, "steer first", () => ({ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] }));
    expect((await fakes.sock.request("chat.send", { sessionKey, message: "steer first", idempotencyKey: "shrink-steer-1" })).payload).toMatchObject({ status: "started" });
    await first.arrived;
    const steered = await fakes.sock.request("chat.send", {
      sessionKey,
      message: "and this photo",
      idempotencyKey: "shrink-steer-2",
      attachments: [{ type: "image", mimeType: "image/jpeg", fileName: "late.jpg", content: picture(1200, 1600, "jpeg").toString("base64") }],
    });
    expect(steered.payload).toMatchObject({ status: "started", queued: "steered" });
    first.release();
    const joined = () => chatRequests(fakes.model.requests).find((r) => imagesOf(r).length > 0 && JSON.stringify(r.body.messages).includes("and this photo"));
    await waitUntil(() => joined() !== undefined, 30_000, "the model call the steered photo joined");
    const [image] = imagesOf(joined()!);
    expect(imageSize(image!.bytes)).toEqual({ width: 450, height: 600 });
  });
});
