import { describe, expect, it } from "vitest";
import { imageGenerationSetup } from "../../../src/agents/tools/image-generate/image-generation-setup.js";
import { validateConfig } from "../../../src/config/validate.js";

const load = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => validateConfig(raw, env);
const setup = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => imageGenerationSetup(load(raw, env).config, env);
const imageModel = (image: unknown) => ({ agents: { defaults: { mediaModels: { image } } } });

describe("which image models image_generate gets", () => {
  it("none by default: no image model and no OpenAI key means no tool", () => {
    expect(setup({})).toEqual({ problem: expect.stringContaining("no image-generation provider is set up") });
    expect(setup({}, { OPENAI_API_KEY: "  " }).host).toBeUndefined();
  });

  it("an OpenAI key alone sets up OpenAI's default model at api.openai.com, as OpenClaw auto-detects it", () => {
    const { host } = setup({}, { OPENAI_API_KEY: "sk-env" });
    expect(host?.candidates).toEqual([
      { kind: "provider", ref: "openai/gpt-image-2", provider: "openai", model: "gpt-image-2", baseUrl: "https://api.openai.com/v1", apiKey: "sk-env" },
    ]);
    expect(host?.timeoutMs).toBe(180_000);
  });

  it("reads the provider's base URL, key and headers from models.providers, the key winning over the environment", () => {
    const { host } = setup(
      {
        ...imageModel({ primary: "openai/gpt-image-1.5", timeoutMs: 5000 }),
        models: { providers: { openai: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-config", headers: { "X-Team": "a" } } } },
      },
      { OPENAI_API_KEY: "sk-env" },
    );
    expect(host?.candidates[0]).toEqual({
      kind: "provider",
      ref: "openai/gpt-image-1.5",
      provider: "openai",
      model: "gpt-image-1.5",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "sk-config",
      headers: { "X-Team": "a" },
    });
    expect(host?.timeoutMs).toBe(5000);
  });

  it("keeps the configured order; a provider that does not speak OpenAI's Images API stays as a failure naming why", () => {
    const { host } = setup(imageModel({ primary: "google/gemini-3.1-flash-image", fallbacks: ["openai/gpt-image-2", "fal/fal-ai/flux/dev"] }), { OPENAI_API_KEY: "k" });
    expect(host?.candidates.map((c) => [c.ref, c.kind])).toEqual([
      ["google/gemini-3.1-flash-image", "unusable"],
      ["openai/gpt-image-2", "provider"],
      ["fal/fal-ai/flux/dev", "unusable"],
    ]);
    expect(host?.candidates[0]).toMatchObject({ reason: expect.stringContaining("only OpenAI's Images API is spoken") });
  });

  it("a server of your own (a models.providers entry with an openai api) runs without a key; one on another api does not", () => {
    const models = {
      providers: {
        local: { baseUrl: "http://127.0.0.1:8080/v1", api: "openai-completions" },
        claude: { baseUrl: "https://api.anthropic.com", api: "anthropic-messages", apiKey: "k" },
      },
    };
    expect(setup({ ...imageModel("local/sdxl"), models }).host?.candidates[0]).toEqual({
      kind: "provider",
      ref: "local/sdxl",
      provider: "local",
      model: "sdxl",
      baseUrl: "http://127.0.0.1:8080/v1",
    });
    expect(setup({ ...imageModel("claude/x"), models }).problem).toContain("has api anthropic-messages");
  });

  it("no tool when every configured model is unusable: openai without a key, a ref without a provider, models.mode replace", () => {
    expect(setup(imageModel("openai/gpt-image-2")).problem).toContain("no API key for openai: set models.providers.openai.apiKey or OPENAI_API_KEY");
    expect(setup(imageModel("gpt-image-2"), { OPENAI_API_KEY: "k" }).problem).toContain('not a "provider/model" ref');
    expect(setup({ ...imageModel("openai/gpt-image-2"), models: { mode: "replace", providers: {} } }, { OPENAI_API_KEY: "k" }).problem).toContain('models.mode is "replace"');
  });

  it("a call's own model is resolved the same way; a bare id takes the first usable model's provider", () => {
    const { host } = setup(imageModel({ primary: "google/x", fallbacks: ["openai/gpt-image-2"] }), { OPENAI_API_KEY: "k" });
    expect(host?.candidateFor("gpt-image-1")).toMatchObject({ kind: "provider", ref: "openai/gpt-image-1" });
    expect(host?.candidateFor("xai/grok-imagine-image")).toMatchObject({ kind: "unusable", ref: "xai/grok-imagine-image" });
  });
});

describe("image model warnings at load", () => {
  it("says which configured models are skipped and why, and when none is left", () => {
    const { warnings } = load(imageModel({ primary: "google/gemini-3.1-flash-image", fallbacks: ["openai/gpt-image-2"] }));
    expect(warnings).toEqual([
      'agents.defaults.mediaModels.image: "google/gemini-3.1-flash-image" is skipped: provider "google" cannot generate images here: only OpenAI\'s Images API is spoken (openai, or a models.providers entry with an openai-* api)',
      'agents.defaults.mediaModels.image: "openai/gpt-image-2" is skipped: no API key for openai (set models.providers.openai.apiKey or OPENAI_API_KEY in the gateway\'s environment)',
      "agents.defaults.mediaModels.image names no model that can run here: image_generate is not offered",
    ]);
  });

  it("is quiet for a usable model, a key from env.vars included", () => {
    expect(load(imageModel("openai/gpt-image-2"), { OPENAI_API_KEY: "k" }).warnings).toEqual([]);
    expect(load({ ...imageModel("openai/gpt-image-2"), env: { vars: { OPENAI_API_KEY: "k" } } }).warnings).toEqual([]);
  });

  it("refuses OpenClaw's video and music generation models as unsupported, by name", () => {
    const { config, warnings } = load({ agents: { defaults: { mediaModels: { video: "qwen/wan2.6-t2v", music: { primary: "google/lyria-3" } } } } });
    expect(warnings).toEqual([
      "agents.defaults.mediaModels.video was ignored: video generation (OpenClaw's video_generate) is not supported by this gateway; only image generation is (remove it)",
      "agents.defaults.mediaModels.music was ignored: music generation (OpenClaw's music_generate) is not supported by this gateway; only image generation is (remove it)",
    ]);
    expect(config.agents.defaults.mediaModels).toEqual({});
  });

  it("refuses a timeoutMs that is not a positive whole number", () => {
    expect(() => load(imageModel({ primary: "openai/gpt-image-2", timeoutMs: 0 }))).toThrow(/agents\.defaults\.mediaModels\.image/);
  });
});
