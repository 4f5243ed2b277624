import { describe, expect, it } from "vitest";
import { validateConfig, type OpenClawConfig } from "../../../src/config/index.js";
// @ts-expect-error: a plain .mjs module without types
import { BENCH_MODELS } from "../../../bench/lib/bench-config.mjs";
import { apiKeyEnvVar, isLocalBaseUrl, listConfiguredModels, resolveModel } from "../../../src/models/index.js";

const APPENDIX = {
  agents: { defaults: { model: { primary: "fake/fake-model" } } },
  models: BENCH_MODELS,
};

function config(raw: unknown): OpenClawConfig {
  return validateConfig(raw, {}).config;
}

function resolveError(ref: string | undefined, raw: unknown, env: NodeJS.ProcessEnv = {}): string {
  const result = resolveModel(ref, config(raw), env);
  if (result.ok) throw new Error(`expected a failure, got ${result.model.ref}`);
  return result.message;
}

describe("resolveModel", () => {
  it("carries the provider's localService, its health URL by the api: <baseUrl>/models, or /api/tags for Ollama (also the built-in one)", () => {
    const service = { command: "/opt/server", args: ["--port", "8000"], env: { TOKEN: "t0ken-value" }, idleStopMs: 5_000 };
    const raw = {
      models: {
        providers: {
          local: { baseUrl: "http://127.0.0.1:8000/v1/", apiKey: "sk-local-key", api: "openai-completions", localService: service },
          ollama: { localService: { command: "/usr/local/bin/ollama", args: ["serve"] } },
        },
      },
    };
    const local = resolveModel("local/m", config(raw), {});
    const ollama = resolveModel("ollama/qwen3:8b", config(raw), {});
    if (!local.ok || !ollama.ok) throw new Error("expected both to resolve");
    expect(local.model.localService).toEqual({
      label: "models.providers.local.localService",
      command: "/opt/server",
      args: ["--port", "8000"],
      env: { TOKEN: "t0ken-value" },
      healthUrl: "http://127.0.0.1:8000/v1/models",
      readyTimeoutMs: 120_000,
      idleStopMs: 5_000,
      secrets: ["sk-local-key"],
    });
    expect(ollama.model.localService).toMatchObject({ healthUrl: "http://127.0.0.1:11434/api/tags", idleStopMs: 0 });
    const plain = resolveModel("fake/fake-model", config(APPENDIX), {});
    if (!plain.ok) throw new Error(plain.message);
    expect(plain.model).not.toHaveProperty("localService");
  });

  it("resolves the appendix config's default to the fake OpenAI-compatible provider", () => {
    const result = resolveModel(undefined, config(APPENDIX), {});
    expect(result).toEqual({
      ok: true,
      model: {
        ref: "fake/fake-model",
        provider: "fake",
        id: "fake-model",
        api: "openai-completions",
        baseUrl: "http://127.0.0.1:18999/v1",
        apiKey: "sk-local",
        contextWindow: 120000,
        maxTokens: 8192,
        reasoning: false,
        input: ["text"],
      },
    });
  });

  it("says exactly what to set when no model is configured", () => {
    expect(resolveError(undefined, {})).toBe(
      'No model configured. Set agents.defaults.model (e.g. "anthropic/claude-sonnet-4-5") and ANTHROPIC_API_KEY, or add a provider under models.providers.',
    );
  });

  it("names the unknown provider and where to add it", () => {
    const message = resolveError("nope/some-model", APPENDIX);
    expect(message).toContain('Unknown model provider "nope"');
    expect(message).toContain("models.providers.nope");
    expect(message).toContain("anthropic, openai, ollama, fake");
  });

  it("names the env var when the key is missing, and never leaks a key", () => {
    expect(resolveError("anthropic/claude-sonnet-4-5", {})).toContain("Set ANTHROPIC_API_KEY");
    expect(resolveError("openai/gpt-5", {})).toContain("Set OPENAI_API_KEY");
    const custom = { models: { providers: { "my-llm": { baseUrl: "http://127.0.0.1:1/v1" } } } };
    const message = resolveError("my-llm/x", custom, { OPENAI_API_KEY: "sk-should-not-appear" });
    expect(message).toContain("MY_LLM_API_KEY");
    expect(message).toContain("models.providers.my-llm.apiKey");
    expect(message).not.toContain("sk-should-not-appear");
  });

  it("uses built-in providers with a key from the environment", () => {
    const anthropic = resolveModel("anthropic/claude-sonnet-4-5", config({}), { ANTHROPIC_API_KEY: "sk-ant" });
    expect(anthropic.ok && anthropic.model).toMatchObject({
      provider: "anthropic",
      id: "claude-sonnet-4-5",
      api: "anthropic-messages",
      apiKey: "sk-ant",
      contextWindow: 200000,
      maxTokens: 8192,
      reasoning: false,
      input: ["text"],
    });
    const openai = resolveModel("openai/gpt-5", config({}), { OPENAI_API_KEY: "sk-oai" });
    expect(openai.ok && openai.model).toMatchObject({ api: "openai-completions", baseUrl: "https://api.openai.com/v1" });
  });

  it("splits the ref at the first slash only", () => {
    const raw = { models: { providers: { openrouter: { baseUrl: "https://openrouter.ai/api/v1", apiKey: "k" } } } };
    const result = resolveModel("openrouter/moonshotai/kimi-k2", config(raw), {});
    expect(result.ok && [result.model.provider, result.model.id]).toEqual(["openrouter", "moonshotai/kimi-k2"]);
  });

  it("reads the default from the string form and falls back to <PROVIDER>_API_KEY for configured providers", () => {
    const raw = {
      agents: { defaults: { model: "local/llama" } },
      models: { providers: { local: { baseUrl: "http://127.0.0.1:11434/v1", headers: { "x-extra": "1" }, timeoutSeconds: 30 } } },
    };
    const result = resolveModel(undefined, config(raw), { LOCAL_API_KEY: "from-env" });
    expect(result.ok && result.model).toMatchObject({
      ref: "local/llama",
      api: "openai-completions",
      apiKey: "from-env",
      headers: { "x-extra": "1" },
      timeoutSeconds: 30,
    });
  });

  it("resolves the Responses api, and rejects a custom provider without baseUrl", () => {
    const responses = { models: { providers: { x: { baseUrl: "http://h/v1", apiKey: "k", api: "openai-responses" } } } };
    const resolved = resolveModel("x/m", config(responses), {});
    expect(resolved.ok && resolved.model).toMatchObject({ ref: "x/m", api: "openai-responses", baseUrl: "http://h/v1" });
    expect(resolveError("y/m", { models: { providers: { y: { apiKey: "k" } } } })).toContain("Set models.providers.y.baseUrl");
  });

  it("hides built-in providers in replace mode", () => {
    const raw = { models: { mode: "replace", providers: { fake: APPENDIX.models.providers.fake } } };
    expect(resolveError("anthropic/claude", raw, { ANTHROPIC_API_KEY: "k" })).toContain('Unknown model provider "anthropic"');
  });

  it("resolves bare ids through aliases and unique listed models", () => {
    const raw = { ...APPENDIX, agents: { defaults: { models: { "fake/fake-model": { alias: "quick" } } } } };
    const viaAlias = resolveModel("quick", config(raw), {});
    expect(viaAlias.ok && viaAlias.model.ref).toBe("fake/fake-model");
    const viaId = resolveModel("fake-model", config(APPENDIX), {});
    expect(viaId.ok && viaId.model.ref).toBe("fake/fake-model");
    expect(resolveError("mystery", APPENDIX)).toContain('Use "provider/model"');
  });
});

describe("listConfiguredModels", () => {
  it("lists configured models and the default chain with availability", () => {
    const raw = {
      ...APPENDIX,
      agents: { defaults: { model: { primary: "fake/fake-model", fallbacks: ["anthropic/claude-sonnet-4-5"] } } },
    };
    expect(listConfiguredModels(config(raw), {})).toEqual([
      {
        ref: "fake/fake-model",
        provider: "fake",
        id: "fake-model",
        name: "Fake Model",
        contextWindow: 120000,
        maxTokens: 8192,
        reasoning: false,
        input: ["text"],
        available: true,
        baseUrl: "http://127.0.0.1:18999/v1",
      },
      {
        ref: "anthropic/claude-sonnet-4-5",
        provider: "anthropic",
        id: "claude-sonnet-4-5",
        contextWindow: 200000,
        maxTokens: 8192,
        reasoning: false,
        input: ["text"],
        available: false,
      },
    ]);
    const withKey = listConfiguredModels(config(raw), { ANTHROPIC_API_KEY: "k" });
    expect(withKey.map((m) => m.available)).toEqual([true, true]);
  });
});

describe("apiKeyEnvVar", () => {
  it("upper-cases the provider id and replaces characters env names cannot hold", () => {
    expect(apiKeyEnvVar("anthropic")).toBe("ANTHROPIC_API_KEY");
    expect(apiKeyEnvVar("my-llm.v2")).toBe("MY_LLM_V2_API_KEY");
  });
});

describe("isLocalBaseUrl", () => {
  it("is true for this machine and .local names, false for other hosts and bad URLs", () => {
    for (const url of ["http://localhost:11434/v1", "http://127.0.0.1:1/v1", "http://[::1]:8080", "http://0.0.0.0:1", "http://gpu-box.local/v1"])
      expect(isLocalBaseUrl(url), url).toBe(true);
    for (const url of ["https://api.openai.com/v1", "http://10.0.0.5:8000/v1", "http://127.example.com", "not a url"]) expect(isLocalBaseUrl(url), url).toBe(false);
  });
});
