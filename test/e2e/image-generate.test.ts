import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeImagesServer, startFakeImagesServer } from "../fakes/images-server.js";
import type { FakeModelServer, RecordedRequest } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { chatRequests, lastMessageOf, lastToolResultOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { ONE_PIXEL_PNG } from "../helpers/tiny-png.js";

/**
 * image_generate in a real gateway process: the fake model calls it, the gateway asks a fake
 * OpenAI Images API (models.providers.openai's baseUrl and key, agents.defaults.mediaModels.image),
 * saves the PNG in the agent's workspace, and the next model request carries the tool's result.
 */
const IMAGE_KEY = "sk-images-e2e-7c1f03d9a2";
let images: FakeImagesServer;

// Before the gateways' hooks (registered below): their configs need the server's URL.
beforeAll(async () => {
  images = await startFakeImagesServer();
});
afterAll(async () => {
  await images?.close();
});
afterEach(() => images.reset());

/** The model calls image_generate with `args` when the user says `ask`, then answers "done" once it has the result. */
function callImageGenerate(model: FakeModelServer, ask: string, args: Record<string, unknown>): void {
  model.setResponder((req) => {
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text === ask) return { toolCalls: [{ name: "image_generate", arguments: args }] };
    return { text: "done" };
  });
}

/** What image_generate returned, as the model's next request carries it. */
function toolResultAfter(requests: readonly RecordedRequest[]): Record<string, any> {
  const request = chatRequests(requests).find((r) => lastMessageOf(r).role === "tool");
  if (!request) throw new Error("no model request carried a tool result");
  return lastToolResultOf(request)!;
}

describe("with an image model set up", () => {
  const fakes = useFakeModelGateway({
    operator: true,
    // No key from the developer's shell: the one in the config is the one sent.
    env: { OPENAI_API_KEY: "" },
    configure: (config) => {
      config.models.providers.openai = { baseUrl: `${images.url}/v1`, apiKey: IMAGE_KEY };
      config.agents.defaults.mediaModels = { image: { primary: "openai/gpt-image-2", timeoutMs: 20_000 } };
    },
  });
  const workspace = () => path.join(fakes.stateDir, "workspace");

  it("the model's call makes the provider draw, the PNG lands in the workspace, and the model reads where", async () => {
    callImageGenerate(fakes.model, "draw a robot", { prompt: "a friendly red robot mascot", size: "1024x1024", quality: "low", filename: "robot" });
    const final = await askAndWait(fakes.sock, "image-ok", "draw a robot", 15_000);
    expect(final.payload.state).toBe("final");

    expect(toolNamesOf(chatRequests(fakes.model.requests)[0]!)).toContain("image_generate");
    expect(images.requests).toHaveLength(1);
    expect(images.requests[0]).toMatchObject({
      endpoint: "generations",
      authorization: `Bearer ${IMAGE_KEY}`,
      fields: { model: "gpt-image-2", prompt: "a friendly red robot mascot", size: "1024x1024", quality: "low", n: 1 },
    });
    expect(fs.readFileSync(path.join(workspace(), "images", "robot.png")).equals(ONE_PIXEL_PNG)).toBe(true);

    const result = toolResultAfter(fakes.model.requests);
    expect(result.text).toContain(
      `Generated 1 image with openai/gpt-image-2 (size 1024x1024, quality low), saved in the workspace:\n- images/robot.png (image/png, ${ONE_PIXEL_PNG.length} B)`,
    );
    expect(result.text).toContain('send it with the message tool\'s file (file: "images/robot.png")');
    // The provider's key never reaches the model.
    expect(JSON.stringify(chatRequests(fakes.model.requests).map((r) => r.body))).not.toContain(IMAGE_KEY);
  });

  it("edits a workspace image through /images/edits and saves a url answer without overwriting a file of that name", async () => {
    fs.mkdirSync(path.join(workspace(), "images"), { recursive: true });
    fs.writeFileSync(path.join(workspace(), "photo.png"), ONE_PIXEL_PNG);
    fs.writeFileSync(path.join(workspace(), "images", "watercolor.png"), "the user's own file");
    images.respondWith = "url";
    callImageGenerate(fakes.model, "make it watercolor", { prompt: "the same photo as a watercolor", image: "photo.png", filename: "watercolor" });
    await askAndWait(fakes.sock, "image-edit", "make it watercolor", 15_000);

    expect(images.requests[0]).toMatchObject({ endpoint: "edits", fields: { model: "gpt-image-2", prompt: "the same photo as a watercolor", n: "1" } });
    expect(images.requests[0]!.files).toEqual([{ field: "image", name: "photo.png", bytes: ONE_PIXEL_PNG }]);
    expect(toolResultAfter(fakes.model.requests).text).toContain("- images/watercolor-2.png (image/png");
    expect(fs.readFileSync(path.join(workspace(), "images", "watercolor-2.png")).equals(ONE_PIXEL_PNG)).toBe(true);
    expect(fs.readFileSync(path.join(workspace(), "images", "watercolor.png"), "utf8")).toBe("the user's own file");
  });

  it("a prompt the provider's content policy refuses comes back to the model as IMAGE_PROMPT_REFUSED", async () => {
    images.failWith = {
      status: 400,
      body: { error: { code: "moderation_blocked", type: "image_generation_user_error", message: "Your request was rejected by the safety system." } },
    };
    callImageGenerate(fakes.model, "draw something refused", { prompt: "something the policy refuses" });
    await askAndWait(fakes.sock, "image-refused", "draw something refused", 15_000);
    expect(toolResultAfter(fakes.model.requests)).toEqual({
      error: "IMAGE_PROMPT_REFUSED",
      message:
        "No image was made: openai/gpt-image-2: the provider's content policy refused the prompt (HTTP 400 moderation_blocked): Your request was rejected by the safety system.",
      suggestion: expect.stringContaining("Do not send this prompt again unchanged"),
    });
  });

  it("a provider that fails (HTTP 500) comes back to the model as IMAGE_PROVIDER_FAILED, nothing saved", async () => {
    images.failWith = { status: 500, body: { error: { message: "the image backend is down" } } };
    const before = fs.existsSync(path.join(workspace(), "images")) ? fs.readdirSync(path.join(workspace(), "images")).length : 0;
    callImageGenerate(fakes.model, "draw during an outage", { prompt: "a lighthouse", filename: "lighthouse" });
    await askAndWait(fakes.sock, "image-500", "draw during an outage", 15_000);
    expect(toolResultAfter(fakes.model.requests)).toMatchObject({
      error: "IMAGE_PROVIDER_FAILED",
      message: "No image was made: openai/gpt-image-2: HTTP 500 (the provider's server failed): the image backend is down.",
    });
    expect(fs.existsSync(path.join(workspace(), "images")) ? fs.readdirSync(path.join(workspace(), "images")).length : 0).toBe(before);
  });
});

describe("without an image model", () => {
  const fakes = useFakeModelGateway({ operator: true, env: { OPENAI_API_KEY: "" } });

  it("the tool is not offered: the model request lists no image_generate", async () => {
    fakes.model.setResponder(() => ({ text: "hi" }));
    await askAndWait(fakes.sock, "no-images", "hello there", 15_000);
    const request = chatRequests(fakes.model.requests).find((r) => lastUserTextOf(r) === "hello there")!;
    expect(toolNamesOf(request)).toContain("read");
    expect(toolNamesOf(request)).not.toContain("image_generate");
  });
});
