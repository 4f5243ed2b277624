import { describe, expect, it } from "vitest";
import { speechSetup } from "../../../src/agents/speech/index.js";
import { ConfigError, configuredAutoTts, validateConfig } from "../../../src/config/index.js";

const load = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => validateConfig(raw, env);
const setup = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => speechSetup(load(raw, env).config, env);

describe("the tts config block", () => {
  it("is off without a tts block, even with an OpenAI key: no turn grows a tool nobody asked for", () => {
    expect(setup({}, { OPENAI_API_KEY: "sk-env" })).toEqual({ problem: expect.stringContaining("text-to-speech is not set up") });
    expect(load({}, { OPENAI_API_KEY: "sk-env" }).warnings.filter((w) => w.includes("tts"))).toEqual([]);
  });

  it("an empty block with an OpenAI key speaks through OpenAI's defaults", () => {
    expect(setup({ tts: {} }, { OPENAI_API_KEY: "sk-env" }).host).toEqual({
      provider: "openai",
      model: "gpt-4o-mini-tts",
      voice: "coral",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "sk-env",
      timeoutMs: 30_000,
      maxTextLength: 4096,
    });
  });

  it("takes the block's own settings, its key and URL over models.providers and the environment", () => {
    const { host } = setup(
      {
        tts: {
          timeoutMs: 5000,
          maxTextLength: 200,
          providers: {
            openai: {
              apiKey: "sk-tts",
              baseUrl: "http://127.0.0.1:9/v1",
              model: "tts-1",
              speakerVoice: "alloy",
              instructions: "calm",
              responseFormat: "wav",
              speed: 1.25,
              extraBody: { lang: "en" },
            },
          },
        },
        models: { providers: { openai: { baseUrl: "http://127.0.0.1:8/v1", apiKey: "sk-models" } } },
      },
      { OPENAI_API_KEY: "sk-env", OPENAI_TTS_BASE_URL: "http://127.0.0.1:7/v1" },
    );
    expect(host).toEqual({
      provider: "openai",
      model: "tts-1",
      voice: "alloy",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "sk-tts",
      instructions: "calm",
      responseFormat: "wav",
      speed: 1.25,
      extraBody: { lang: "en" },
      timeoutMs: 5000,
      maxTextLength: 200,
    });
  });

  it("without the block's own, uses OPENAI_TTS_BASE_URL, then models.providers.openai; the legacy voice key still names the voice", () => {
    const models = { models: { providers: { openai: { baseUrl: "http://127.0.0.1:8/v1", apiKey: "sk-models" } } } };
    expect(setup({ tts: { providers: { openai: { voice: "echo" } } }, ...models }, { OPENAI_TTS_BASE_URL: "http://127.0.0.1:7/v1" }).host).toMatchObject({
      baseUrl: "http://127.0.0.1:7/v1",
      apiKey: "sk-models",
      voice: "echo",
    });
    expect(setup({ tts: {}, ...models }).host).toMatchObject({ baseUrl: "http://127.0.0.1:8/v1", apiKey: "sk-models" });
  });

  it("an OpenAI-compatible server of your own (a models.providers entry) speaks with its URL, no key needed, but needs a model and a voice", () => {
    const models = { models: { providers: { deepinfra: { baseUrl: "http://127.0.0.1:6/v1/openai" } } } };
    expect(setup({ tts: { provider: "deepinfra", providers: { deepinfra: { model: "hexgrad/Kokoro-82M", speakerVoice: "af_bella" } } }, ...models }).host).toMatchObject({
      provider: "deepinfra",
      baseUrl: "http://127.0.0.1:6/v1/openai",
      model: "hexgrad/Kokoro-82M",
      voice: "af_bella",
    });
    expect(setup({ tts: { provider: "deepinfra" }, ...models }).problem).toBe('no speech model for provider "deepinfra" (set tts.providers.deepinfra.model)');
    expect(setup({ tts: { provider: "deepinfra", providers: { deepinfra: { model: "m" } } }, ...models }).problem).toBe(
      'no voice for provider "deepinfra" (set tts.providers.deepinfra.speakerVoice)',
    );
  });

  it("OpenAI without a key does not speak, and the load says so", () => {
    expect(setup({ tts: {} }).problem).toContain("no API key for openai");
    expect(load({ tts: {} }).warnings).toContain(
      "tts: no API key for openai (set tts.providers.openai.apiKey, models.providers.openai.apiKey or OPENAI_API_KEY in the gateway's environment): the tts tool is not offered",
    );
  });

  it("warns at load for OpenClaw's other speech providers, which are not supported here", () => {
    const loaded = load({ tts: { provider: "elevenlabs", providers: { elevenlabs: { apiKey: "xi" } } } }, { OPENAI_API_KEY: "sk" });
    expect(loaded.warnings).toContain(
      'tts.provider: speech provider "elevenlabs" is not supported by this gateway: only OpenAI\'s /audio/speech is spoken (openai, or a models.providers entry with an openai-* api): the tts tool is not offered',
    );
    expect(speechSetup(loaded.config, {}).problem).toContain('speech provider "elevenlabs" is not supported');
  });

  it("warns that a second provider block is not a fallback here", () => {
    const warnings = load({ tts: { providers: { openai: {}, microsoft: { speakerVoice: "en-US-AvaNeural" } } } }, { OPENAI_API_KEY: "sk" }).warnings;
    expect(warnings).toContain(
      'tts.providers.microsoft is not used: speech provider "microsoft" is not supported by this gateway: only OpenAI\'s /audio/speech is spoken (openai, or a models.providers entry with an openai-* api)',
    );
  });

  it("takes Auto-TTS always and inbound with mode final; refuses tagged and mode all, naming the key", () => {
    const refusal = (tts: Record<string, unknown>) => {
      try {
        load({ tts }, { OPENAI_API_KEY: "sk" });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message;
      }
      throw new Error("expected a ConfigError");
    };
    for (const auto of ["off", "always", "inbound"]) {
      const loaded = load({ tts: { auto, mode: "final" } }, { OPENAI_API_KEY: "sk" });
      expect(loaded.warnings).toEqual([]);
      expect(configuredAutoTts(loaded.config)).toBe(auto);
    }
    expect(refusal({ auto: "tagged" })).toMatch(/^tts\.auto: "tagged": \[\[tts:\.\.\.\]\] directives are not supported by this gateway/);
    expect(refusal({ auto: "always", mode: "all" })).toBe('tts.mode: "all": Auto-TTS speaks only the final reply here, not tool or block replies; use "final" or remove it');
    expect(refusal({ auto: "sometimes" })).toBe('tts.auto: expected one of "off", "always", "inbound", "tagged"');
  });

  it("reads the legacy enabled: true as always when auto is unset; auto wins when both are set; no block is off", () => {
    const auto = (tts: Record<string, unknown> | undefined) => configuredAutoTts(load(tts ? { tts } : {}, { OPENAI_API_KEY: "sk" }).config);
    expect(auto({ enabled: true })).toBe("always");
    expect(auto({ enabled: true, auto: "inbound" })).toBe("inbound");
    expect(auto({ enabled: false })).toBe("off");
    expect(auto(undefined)).toBe("off");
  });

  it("says at load that Auto-TTS will not speak when the provider cannot", () => {
    expect(load({ tts: { auto: "always" } }, {}).warnings).toContain(
      "tts: no API key for openai (set tts.providers.openai.apiKey, models.providers.openai.apiKey or OPENAI_API_KEY in the gateway's environment): the tts tool is not offered and replies are not spoken (tts.auto)",
    );
  });

  it("drops summaries, personas, directives and a preferences file with a warning saying they are not supported", () => {
    const loaded = load({ tts: { summaryModel: "openai/gpt-4.1-mini", persona: "a", personas: {}, modelOverrides: {}, prefsPath: "/x" } }, { OPENAI_API_KEY: "sk" });
    for (const key of ["summaryModel", "persona", "personas", "modelOverrides", "prefsPath"]) {
      expect(loaded.warnings.some((w) => w.startsWith(`tts.${key} was ignored:`))).toBe(true);
    }
    expect(loaded.warnings.find((w) => w.startsWith("tts.summaryModel"))).toContain("a reply over the limit is cut");
    expect(loaded.config.tts).toEqual({});
  });

  it("refuses bad values, naming the key", () => {
    const problem = (tts: unknown) => {
      try {
        load({ tts });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message;
      }
      throw new Error("expected a ConfigError");
    };
    expect(problem({ providers: { openai: { responseFormat: "flac" } } })).toBe('tts.providers.openai.responseFormat: expected one of "mp3", "opus", "wav"');
    expect(problem({ timeoutMs: 0 })).toMatch(/^tts\.timeoutMs: /);
    expect(problem({ providers: { openai: { speed: 9 } } })).toMatch(/^tts\.providers\.openai\.speed: /);
    expect(problem({ providers: { openai: { baseUrl: "localhost:8080" } } })).toMatch(/^tts\.providers\.openai\.baseUrl: /);
  });

  it("takes the provider's key as a SecretRef", () => {
    const { host } = setup({ tts: { providers: { openai: { apiKey: { source: "env", provider: "default", id: "MY_TTS_KEY" } } } } }, { MY_TTS_KEY: "sk-ref" });
    expect(host?.apiKey).toBe("sk-ref");
  });
});
