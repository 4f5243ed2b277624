import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { checkImageRequest, ImageGenerateParameters, type ImageGenerateArgs } from "../../../src/agents/tools/image-generate/image-generate-params.js";

const ok = (args: ImageGenerateArgs & { fal?: unknown }) => {
  const checked = checkImageRequest(args);
  if (!checked.ok) throw new Error(`expected the arguments to pass: ${checked.field}: ${checked.problem}`);
  return checked.request;
};
const refusal = (args: ImageGenerateArgs & { fal?: unknown }) => {
  const checked = checkImageRequest(args);
  if (checked.ok) throw new Error("expected the arguments to be refused");
  return { field: checked.field, problem: checked.problem };
};

describe("image_generate's schema", () => {
  it("takes OpenClaw's parameters and bounds count and timeoutMs as OpenClaw does", () => {
    const full = {
      action: "generate",
      prompt: "a robot",
      model: "openai/gpt-image-1.5",
      image: "in.png",
      images: ["a.png"],
      size: "1024x1024",
      resolution: "2K",
      quality: "xhigh",
      outputFormat: "webp",
      background: "transparent",
      count: 4,
      timeoutMs: 600_000,
      filename: "robot",
      openai: { background: "transparent", moderation: "low", outputCompression: 60, user: "u-1" },
    };
    expect(Value.Check(ImageGenerateParameters, full)).toBe(true);
    for (const bad of [{ count: 0 }, { count: 5 }, { timeoutMs: 600_001 }, { quality: "ultra" }, { outputFormat: "gif" }, { openai: { moderation: "high" } }, { action: "edit" }]) {
      expect(Value.Check(ImageGenerateParameters, { prompt: "x", ...bad }), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("checkImageRequest", () => {
  it("trims the prompt, defaults count to 1 and sends only what the call set", () => {
    expect(ok({ prompt: "  a red robot  " })).toEqual({ prompt: "a red robot", count: 1, referencePaths: [], mapped: [], ignored: {} });
  });

  it("needs a prompt, at most 32,000 characters", () => {
    expect(refusal({})).toMatchObject({ field: "prompt" });
    expect(refusal({ prompt: "   " })).toMatchObject({ field: "prompt" });
    expect(refusal({ prompt: "x".repeat(32_001) }).problem).toContain("at most 32000");
  });

  it('takes size as "auto" or WIDTHxHEIGHT up to 3840 a side, written loosely', () => {
    expect(ok({ prompt: "p", size: " 1536X1024 " }).size).toBe("1536x1024");
    expect(ok({ prompt: "p", size: "auto" }).size).toBe("auto");
    expect(ok({ prompt: "p", size: "3840x2160" }).size).toBe("3840x2160");
    expect(refusal({ prompt: "p", size: "big" })).toMatchObject({ field: "size", problem: expect.stringContaining("WIDTHxHEIGHT") });
    expect(refusal({ prompt: "p", size: "4096x4096" }).problem).toContain("1-3840");
    expect(refusal({ prompt: "p", size: "0x1024" }).problem).toContain("1-3840");
  });

  it("maps an aspect ratio to the closest size every gpt-image model takes, and says so", () => {
    expect(ok({ prompt: "p", aspectRatio: "16:9" })).toMatchObject({ size: "1536x1024", mapped: ["aspectRatio 16:9 → size 1536x1024"] });
    expect(ok({ prompt: "p", aspectRatio: "9:19.5" }).size).toBe("1024x1536");
    expect(ok({ prompt: "p", aspectRatio: "1:1" }).size).toBe("1024x1024");
    expect(ok({ prompt: "p", aspectRatio: "6:5" }).size).toBe("1024x1024");
    expect(ok({ prompt: "p", aspectRatio: "5:4" }).size).toBe("1536x1024");
    expect(refusal({ prompt: "p", aspectRatio: "wide" }).field).toBe("aspectRatio");
    expect(refusal({ prompt: "p", aspectRatio: "9:1" }).field).toBe("aspectRatio");
    expect(refusal({ prompt: "p", size: "1024x1024", aspectRatio: "16:9" }).problem).toBe("give size or aspectRatio, not both");
  });

  it("reports what is not sent instead of dropping it: resolution, and a compression a png cannot use", () => {
    const request = ok({ prompt: "p", resolution: "4K", openai: { outputCompression: 50 } });
    expect(request.ignored).toEqual({
      resolution: expect.stringContaining("takes size, not resolution"),
      "openai.outputCompression": expect.stringContaining("jpeg and webp output only"),
    });
    expect(request.outputCompression).toBeUndefined();
    expect(ok({ prompt: "p", outputFormat: "jpeg", openai: { outputCompression: 50 } })).toMatchObject({ outputCompression: 50, ignored: {} });
  });

  it("takes the background from either place, refuses two different ones and a transparent jpeg", () => {
    expect(ok({ prompt: "p", openai: { background: "opaque" } }).background).toBe("opaque");
    expect(ok({ prompt: "p", background: "transparent", openai: { background: "transparent" }, outputFormat: "png" }).background).toBe("transparent");
    expect(refusal({ prompt: "p", background: "opaque", openai: { background: "transparent" } }).field).toBe("openai.background");
    expect(refusal({ prompt: "p", background: "transparent", outputFormat: "jpeg" }).problem).toContain("png or webp");
  });

  it("passes OpenAI's moderation and user, the model, timeout and filename", () => {
    expect(ok({ prompt: "p", model: " openai/gpt-image-1 ", timeoutMs: 5000, filename: " robot ", openai: { moderation: "low", user: " u-42 " } })).toMatchObject({
      model: "openai/gpt-image-1",
      timeoutMs: 5000,
      filename: "robot",
      moderation: "low",
      user: "u-42",
    });
    expect(refusal({ prompt: "p", model: "  " }).field).toBe("model");
  });

  it("collects the reference images once each, at most five", () => {
    expect(ok({ prompt: "p", image: "a.png", images: ["b.png", "a.png", " "] }).referencePaths).toEqual(["a.png", "b.png"]);
    expect(refusal({ prompt: "p", image: "a.png", images: ["b.png", "c.png", "d.png", "e.png", "f.png"] })).toMatchObject({
      field: "images",
      problem: expect.stringContaining("at most 5"),
    });
  });

  it("refuses OpenClaw's fal options: fal's models do not run here", () => {
    expect(refusal({ prompt: "p", fal: { creativity: "high" } })).toMatchObject({ field: "fal", problem: expect.stringContaining("does not run") });
  });
});
