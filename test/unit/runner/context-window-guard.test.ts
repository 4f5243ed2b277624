import { describe, expect, it } from "vitest";
import { evaluateContextWindow, liveToolResultMaxChars } from "../../../src/agents/context-window-guard.js";
import { resolveContextWindow } from "../../../src/models/context-window.js";
import { applyDefaults } from "../../../src/config/defaults.js";

describe("context window resolution", () => {
  const providers = { fake: { baseUrl: "http://127.0.0.1:1", models: [{ id: "listed", contextWindow: 64_000 }, { id: "claude-unlisted-window" }] } };

  it("takes the provider's entry, then the catalog, then 200,000", () => {
    const config = applyDefaults({ models: { providers } });
    expect(resolveContextWindow(config, "fake", "listed")).toEqual({ tokens: 64_000, source: "modelsConfig" });
    expect(resolveContextWindow(config, "fake", "claude-unlisted-window")).toEqual({ tokens: 200_000, source: "catalog" });
    expect(resolveContextWindow(config, "openai", "gpt-4o-mini")).toEqual({ tokens: 128_000, source: "catalog" });
    expect(resolveContextWindow(config, "fake", "mystery")).toEqual({ tokens: 200_000, source: "default" });
  });

  it("caps the window with agents.defaults.contextTokens when smaller", () => {
    const config = applyDefaults({ models: { providers }, agents: { defaults: { contextTokens: 50_000 } } });
    expect(resolveContextWindow(config, "fake", "listed")).toEqual({ tokens: 50_000, source: "agentContextTokens" });
    expect(resolveContextWindow(applyDefaults({ models: { providers }, agents: { defaults: { contextTokens: 90_000 } } }), "fake", "listed").tokens).toBe(64_000);
  });

  it("caps one model's window with its entry's contextTokens, and agents.defaults.contextTokens still below that", () => {
    const capped = { fake: { baseUrl: "http://127.0.0.1:1", models: [{ id: "big", contextWindow: 1_000_000, contextTokens: 96_000 }] } };
    expect(resolveContextWindow(applyDefaults({ models: { providers: capped } }), "fake", "big")).toEqual({ tokens: 96_000, source: "modelContextTokens" });
    expect(resolveContextWindow(applyDefaults({ models: { providers: capped }, agents: { defaults: { contextTokens: 50_000 } } }), "fake", "big")).toEqual({
      tokens: 50_000,
      source: "agentContextTokens",
    });
    const verdict = evaluateContextWindow({ ref: "fake/big", provider: "fake", id: "big" }, { tokens: 8_000, source: "modelContextTokens" }, applyDefaults({}));
    expect(verdict).toMatchObject({ action: "block", message: expect.stringContaining('raise or remove the contextTokens of "big" in models.providers.fake.models') });
  });
});

describe("context window guard", () => {
  const config = applyDefaults({});
  const model = { ref: "p/m", provider: "p", id: "m" };
  const window = (tokens: number) => ({ tokens, source: "modelsConfig" as const });

  it("blocks under 16,000, warns under 32,000, runs above", () => {
    expect(evaluateContextWindow(model, window(15_999), config)).toMatchObject({ action: "block" });
    expect(evaluateContextWindow(model, window(16_000), config)).toMatchObject({ action: "warn" });
    expect(evaluateContextWindow(model, window(32_000), config)).toEqual({ action: "run" });
  });

  it("takes lower thresholds from agents.defaults.contextWindowGuard", () => {
    const small = applyDefaults({ agents: { defaults: { contextWindowGuard: { hardMinTokens: 4_000, warnBelowTokens: 6_000 } } } });
    expect(evaluateContextWindow(model, window(8_000), small)).toEqual({ action: "run" });
    expect(evaluateContextWindow(model, window(3_000), small)).toMatchObject({ action: "block" });
  });

  it("names the setting that made the window small: the model's contextWindow, or agents.defaults.contextTokens when it caps it", () => {
    const tiny = { baseUrl: "http://127.0.0.1:1", models: [{ id: "tiny", contextWindow: 8_000 }] };
    const listed = applyDefaults({ models: { providers: { local: tiny } } });
    const refusal = (cfg: ReturnType<typeof applyDefaults>, id: string) => {
      const verdict = evaluateContextWindow({ ref: `local/${id}`, provider: "local", id }, resolveContextWindow(cfg, "local", id), cfg);
      return verdict.action === "block" ? verdict.message : verdict.action;
    };
    expect(refusal(listed, "tiny")).toBe(
      "Model local/tiny has a context window of 8000 tokens, below the minimum of 16000: a turn would not fit. Pick a model with a larger window, " +
        'raise the contextWindow of "tiny" in models.providers.local.models if it understates the model\'s window, or lower agents.defaults.contextWindowGuard.hardMinTokens.',
    );
    const capped = applyDefaults({ models: { providers: { local: tiny } }, agents: { defaults: { contextTokens: 4_000 } } });
    expect(refusal(capped, "tiny")).toContain("raise or remove agents.defaults.contextTokens, which caps every model at 4000");
    expect(refusal(capped, "tiny")).not.toContain("contextWindow of");
    const strict = applyDefaults({ agents: { defaults: { contextWindowGuard: { hardMinTokens: 300_000, warnBelowTokens: 300_000 } } } });
    expect(refusal(strict, "unknown")).toContain('set the contextWindow of "unknown" in models.providers.local.models if the model\'s window is larger');
    expect(refusal(listed, "tiny")).not.toContain("contextTokens");
  });

  it("scales the live tool-result cap with the window", () => {
    expect(liveToolResultMaxChars(32_000)).toBe(16_000);
    expect(liveToolResultMaxChars(100_000)).toBe(32_000);
    expect(liveToolResultMaxChars(200_000)).toBe(64_000);
  });
});
