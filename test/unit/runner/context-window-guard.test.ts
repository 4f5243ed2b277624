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
});

describe("context window guard", () => {
  const config = applyDefaults({});

  it("blocks under 16,000, warns under 32,000, runs above", () => {
    expect(evaluateContextWindow("p/m", 15_999, config)).toMatchObject({ action: "block" });
    expect(evaluateContextWindow("p/m", 16_000, config)).toMatchObject({ action: "warn" });
    expect(evaluateContextWindow("p/m", 32_000, config)).toEqual({ action: "run" });
  });

  it("takes lower thresholds from agents.defaults.contextWindowGuard", () => {
    const small = applyDefaults({ agents: { defaults: { contextWindowGuard: { hardMinTokens: 4_000, warnBelowTokens: 6_000 } } } });
    expect(evaluateContextWindow("p/m", 8_000, small)).toEqual({ action: "run" });
    expect(evaluateContextWindow("p/m", 3_000, small)).toMatchObject({ action: "block" });
  });

  it("scales the live tool-result cap with the window", () => {
    expect(liveToolResultMaxChars(32_000)).toBe(16_000);
    expect(liveToolResultMaxChars(100_000)).toBe(32_000);
    expect(liveToolResultMaxChars(200_000)).toBe(64_000);
  });
});
