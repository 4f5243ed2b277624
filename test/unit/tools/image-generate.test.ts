import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createImageGenerateTool } from "../../../src/agents/tools/image-generate.js";
import type { ImageGenerationHost, ImageModelCandidate, ToolResult } from "../../../src/agents/types.js";
import { type FakeImagesServer, startFakeImagesServer } from "../../fakes/images-server.js";
import { ONE_PIXEL_PNG } from "../../helpers/tiny-png.js";
import { errorOf, makeContext, makeWorkspace, neverAborted, textOf } from "./helpers.js";

const KEY = "sk-image-secret-0123456789";
const tool = createImageGenerateTool();
let images: FakeImagesServer;

beforeAll(async () => {
  images = await startFakeImagesServer();
});
afterAll(() => images.close());
afterEach(() => {
  images.reset();
  vi.unstubAllGlobals();
});

const provider = (ref = "openai/gpt-image-2", extra: Partial<ImageModelCandidate> = {}): ImageModelCandidate => {
  const [name, ...model] = ref.split("/");
  return { kind: "provider", ref, provider: name!, model: model.join("/"), baseUrl: `${images.url}/v1`, apiKey: KEY, ...extra } as ImageModelCandidate;
};
const hostOf = (candidates: ImageModelCandidate[], timeoutMs = 10_000): ImageGenerationHost => ({
  candidates,
  timeoutMs,
  candidateFor: (ref) => provider(ref.includes("/") ? ref : `openai/${ref}`),
});

async function run(
  args: Parameters<typeof tool.execute>[0],
  host: ImageGenerationHost = hostOf([provider()]),
  workspace = makeWorkspace().workspace,
): Promise<ToolResult & { workspace: string }> {
  const result = await tool.execute(args, makeContext(workspace, { imageGeneration: host }), neverAborted);
  return { ...result, workspace };
}

describe("image_generate", () => {
  it("asks the provider with the model, prompt and settings, saves the PNG under images/ and names it", async () => {
    images.revisedPrompt = "A friendly red robot waving";
    const result = await run({ prompt: "a red robot", size: "1024x1024", quality: "low", count: 1, filename: "robot", openai: { moderation: "low", user: "u-1" } });
    expect(result.isError).toBeFalsy();
    expect(images.requests).toEqual([
      expect.objectContaining({
        endpoint: "generations",
        authorization: `Bearer ${KEY}`,
        fields: { model: "gpt-image-2", prompt: "a red robot", n: 1, size: "1024x1024", quality: "low", moderation: "low", user: "u-1" },
      }),
    ]);
    expect(fs.readFileSync(path.join(result.workspace, "images/robot.png")).equals(ONE_PIXEL_PNG)).toBe(true);
    const text = textOf(result);
    expect(text).toContain(
      `Generated 1 image with openai/gpt-image-2 (size 1024x1024, quality low), saved in the workspace:\n- images/robot.png (image/png, ${ONE_PIXEL_PNG.length} B)`,
    );
    expect(text).toContain('send it with the message tool\'s file (file: "images/robot.png")');
    expect(text).toContain("The provider revised the prompt to: A friendly red robot waving");
    expect(result.details).toMatchObject({ model: "openai/gpt-image-2", images: [{ path: "images/robot.png", mimeType: "image/png", bytes: ONE_PIXEL_PNG.length }] });
  });

  it("downloads url answers from a provider on this machine, and saves count images numbered", async () => {
    images.respondWith = "url";
    const result = await run({ prompt: "two cats", count: 2 });
    expect((result.details as { images: { path: string }[] }).images.map((i) => i.path)).toEqual(["images/two-cats-1.png", "images/two-cats-2.png"]);
    expect(fs.readFileSync(path.join(result.workspace, "images/two-cats-2.png")).equals(ONE_PIXEL_PNG)).toBe(true);
  });

  it("refuses a url answer on a private address when the provider itself is public (web_fetch's guard)", async () => {
    // The public provider's answer is stood in for; the download is real and refused before connecting.
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ data: [{ url: `${images.url}/files/x.png` }] }), { status: 200 }));
    const result = await run({ prompt: "p" }, hostOf([provider("openai/gpt-image-2", { baseUrl: "https://api.openai.com/v1" })]));
    expect(errorOf(result)).toMatchObject({ error: "IMAGE_PROVIDER_FAILED", message: expect.stringContaining("could not be downloaded") });
    expect(errorOf(result).message).toContain("private, loopback or link-local");
    expect(fs.existsSync(path.join(result.workspace, "images"))).toBe(false);
  });

  it("edits: sends the workspace reference images to /images/edits as multipart", async () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "a.png"), ONE_PIXEL_PNG);
    fs.writeFileSync(path.join(workspace, "b.png"), ONE_PIXEL_PNG);
    await run({ prompt: "merge them", images: ["a.png", "b.png"], size: "1536x1024" }, undefined, workspace);
    const [request] = images.requests;
    expect(request).toMatchObject({ endpoint: "edits", fields: { model: "gpt-image-2", prompt: "merge them", n: "1", size: "1536x1024" } });
    expect(request!.files.map((f) => [f.field, f.name, f.bytes.equals(ONE_PIXEL_PNG)])).toEqual([
      ["image[]", "a.png", true],
      ["image[]", "b.png", true],
    ]);
  });

  it("a refused prompt is IMAGE_PROMPT_REFUSED with the provider's reason, the key never shown", async () => {
    images.failWith = { status: 400, body: { error: { code: "moderation_blocked", message: `Your request was rejected by the safety system. key ${KEY}` } } };
    const error = errorOf(await run({ prompt: "something refused" }));
    expect(error).toMatchObject({ error: "IMAGE_PROMPT_REFUSED", suggestion: expect.stringContaining("Do not send this prompt again unchanged") });
    expect(error.message).toContain("content policy refused the prompt (HTTP 400 moderation_blocked): Your request was rejected by the safety system. key [redacted]");
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it("a refused key is IMAGE_PROVIDER_AUTH naming where the key is set, without the provider's text", async () => {
    images.failWith = { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY.slice(0, 8)}***` } } };
    const error = errorOf(await run({ prompt: "p" }));
    expect(error).toMatchObject({ error: "IMAGE_PROVIDER_AUTH", message: expect.stringContaining("check models.providers.openai.apiKey or OPENAI_API_KEY") });
    expect(JSON.stringify(error)).not.toContain(KEY.slice(0, 8));
  });

  it("a missing key is IMAGE_PROVIDER_AUTH naming the fix", async () => {
    const missing: ImageModelCandidate = {
      kind: "unusable",
      ref: "openai/gpt-image-2",
      reason: "no API key for openai: set models.providers.openai.apiKey or OPENAI_API_KEY in the gateway's environment",
      missingKey: true,
    };
    expect(errorOf(await run({ prompt: "p" }, hostOf([missing])))).toMatchObject({
      error: "IMAGE_PROVIDER_AUTH",
      message: expect.stringContaining("set models.providers.openai.apiKey"),
    });
    expect(images.requests).toEqual([]);
  });

  it("a server error is IMAGE_PROVIDER_FAILED; the next model is tried and the result says what failed first", async () => {
    images.failWith = { status: 500, body: { error: { message: "upstream exploded" } } };
    expect(errorOf(await run({ prompt: "p" }))).toMatchObject({
      error: "IMAGE_PROVIDER_FAILED",
      message: "No image was made: openai/gpt-image-2: HTTP 500 (the provider's server failed): upstream exploded.",
    });

    images.reset();
    const down = provider("broken/gpt-image-2", { baseUrl: `${images.url}/nowhere` });
    const result = await run({ prompt: "p" }, hostOf([{ kind: "unusable", ref: "google/x", reason: "not spoken here" }, down, provider()]));
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("Tried first: google/x: not spoken here; broken/gpt-image-2: HTTP 404");
  });

  it("no answer within timeoutMs is IMAGE_GENERATION_TIMEOUT", async () => {
    images.failWith = "hang";
    expect(errorOf(await run({ prompt: "p", timeoutMs: 200 }))).toMatchObject({
      error: "IMAGE_GENERATION_TIMEOUT",
      message: expect.stringContaining("no images within 200 ms (timeoutMs)"),
    });
  });

  it("a call's model is the only one tried", async () => {
    await run({ prompt: "p", model: "gpt-image-1.5" }, hostOf([provider("openai/gpt-image-2")]));
    expect(images.requests.map((r) => r.fields.model)).toEqual(["gpt-image-1.5"]);
  });

  it("sends the provider's configured headers, and no authorization without a key", async () => {
    await run({ prompt: "p" }, hostOf([provider("local/sd", { apiKey: undefined, headers: { "X-Team": "art" } })]));
    expect(images.requests[0]!.authorization).toBeUndefined();
    expect(images.requests[0]!.headers["x-team"]).toBe("art");
  });

  it("an answer that is not an image is refused, nothing saved", async () => {
    images.image = Buffer.from("not an image at all");
    const result = await run({ prompt: "p" });
    expect(errorOf(result).message).toContain("not a PNG, JPEG, GIF or WebP image");
    expect(fs.existsSync(path.join(result.workspace, "images"))).toBe(false);
  });

  it("list shows the models in order and which are skipped; status says nothing runs in the background here", async () => {
    const list = await run({ action: "list" }, hostOf([{ kind: "unusable", ref: "google/x", reason: "not spoken here" }, provider()]));
    expect(textOf(list)).toContain("1. google/x (skipped: not spoken here)\n2. openai/gpt-image-2\n");
    expect(textOf(list)).not.toContain(KEY);
    expect(textOf(await run({ action: "status" }))).toContain("No image generation is running");
  });

  it("without an image model it is IMAGE_GENERATION_UNAVAILABLE; bad arguments are INVALID_ARGUMENT before any request", async () => {
    const { workspace } = makeWorkspace();
    expect(errorOf(await tool.execute({ prompt: "p" }, makeContext(workspace), neverAborted)).error).toBe("IMAGE_GENERATION_UNAVAILABLE");
    expect(errorOf(await run({ prompt: "p", size: "huge" }))).toMatchObject({ error: "INVALID_ARGUMENT", message: expect.stringMatching(/^size: /) });
    expect(errorOf(await run({ prompt: "p", image: "../escape.png" })).error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(images.requests).toEqual([]);
  });
});
