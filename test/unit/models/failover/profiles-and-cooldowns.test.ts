import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { AuthProfileStore, maskSecret } from "../../../../src/models/failover/index.js";
import { afterFailure, blockedUntil, DEFAULT_COOLDOWNS } from "../../../../src/models/failover/cooldowns.js";
import { collectProfiles } from "../../../../src/models/failover/profile-sources.js";
import { failoverReason } from "../../../../src/models/failover/failure-reason.js";
import { wireSettings } from "../../../../src/models/model-settings.js";

const config = (raw: unknown = {}) => validateConfig(raw, {}).config;

describe("auth profile sources and order", () => {
  it("collects the file, the config key and every env spelling, one profile per secret", () => {
    const env = { MY_LLM_API_KEY: "k-env", MY_LLM_API_KEYS: "k-a; k-b,k-env", MY_LLM_API_KEY_2: "k-two", MY_LLM_API_KEY_10: "k-ten", OTHER_API_KEY: "x" };
    const stored = { "my-llm:work": { type: "token" as const, provider: "my-llm", token: "t-work" }, "other:x": { type: "api_key" as const, provider: "other", key: "o" } };
    const found = collectProfiles("my-llm", stored, config({ models: { providers: { "my-llm": { baseUrl: "http://h/v1", apiKey: "k-config" } } } }), env);
    expect(found.map((p) => [p.id, p.secret, p.source])).toEqual([
      ["my-llm:work", "t-work", "file"],
      ["my-llm:config", "k-config", "config"],
      ["my-llm:env", "k-env", "env"],
      ["my-llm:env-list-1", "k-a", "env"],
      ["my-llm:env-list-2", "k-b", "env"],
      ["my-llm:env-2", "k-two", "env"],
      ["my-llm:env-10", "k-ten", "env"],
    ]);
  });

  it("orders tokens first, then the least recently used; auth.order is the whole choice", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "profiles-"));
    try {
      const file = path.join(dir, "auth-profiles.json");
      fs.writeFileSync(
        file,
        JSON.stringify({ version: 1, profiles: { "p:tok": { type: "token", provider: "p", token: "tok-1" } }, usageStats: { "p:env-list-1": { lastUsed: 500 } } }),
      );
      const store = new AuthProfileStore(file);
      const env = { P_API_KEYS: "a1,a2" };
      expect(store.ordered("p", config(), env).map((p) => p.id)).toEqual(["p:tok", "p:env-list-2", "p:env-list-1"]);
      expect(store.ordered("p", config({ auth: { order: { p: ["p:env-list-1", "p:tok"] } } }), env).map((p) => p.id)).toEqual(["p:env-list-1", "p:tok"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("masks secrets for display", () => {
    expect(maskSecret("sk-abcdefghijkl1234")).toBe("sk-…1234");
    expect(maskSecret("short")).toBe("…");
  });
});

describe("cooldowns", () => {
  const now = 1_000_000;
  it("climbs 30 s → 1 min → 5 min and starts over after the failure window", () => {
    let usage = afterFailure({}, "auth", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.cooldownUntil! - now).toBe(30_000);
    usage = afterFailure(usage, "auth", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.cooldownUntil! - now).toBe(60_000);
    usage = afterFailure(usage, "timeout", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.cooldownUntil! - now).toBe(300_000);
    usage = afterFailure(usage, "auth", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.cooldownUntil! - now).toBe(300_000);
    const later = now + 25 * 3_600_000;
    expect(afterFailure(usage, "auth", "m", later, DEFAULT_COOLDOWNS).cooldownUntil! - later).toBe(30_000);
  });

  it("billing disables for 5 h, doubling up to 24 h", () => {
    let usage = afterFailure({}, "billing", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.disabledUntil! - now).toBe(5 * 3_600_000);
    usage = afterFailure(usage, "billing", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.disabledUntil! - now).toBe(10 * 3_600_000);
    usage = afterFailure(usage, "billing", "m", now, DEFAULT_COOLDOWNS);
    usage = afterFailure(usage, "billing", "m", now, DEFAULT_COOLDOWNS);
    expect(usage.disabledUntil! - now).toBe(24 * 3_600_000);
  });

  it("a rate limit rests the key for its model only, at least as long as retry-after", () => {
    const usage = afterFailure({}, "rate_limit", "m1", now, DEFAULT_COOLDOWNS, 90_000);
    expect(usage.cooldownUntil! - now).toBe(90_000);
    expect(blockedUntil(usage, "m1", now)).toMatchObject({ reason: "rate_limit" });
    expect(blockedUntil(usage, "m2", now)).toBeUndefined();
  });
});

describe("failure reasons", () => {
  it("reads status and wording the documented way", () => {
    expect(failoverReason({ kind: "auth", status: 402, message: "Your credit balance is too low" })).toBe("billing");
    expect(failoverReason({ kind: "auth", status: 402, message: "usage limit reached, try again in 5 hours" })).toBe("rate_limit");
    expect(failoverReason({ kind: "server", status: 529, message: "Overloaded" })).toBe("overloaded");
    expect(failoverReason({ kind: "server", status: 503, message: "The server is overloaded" })).toBe("overloaded");
    expect(failoverReason({ kind: "server", status: 500, message: "boom" })).toBe("server");
    expect(failoverReason({ kind: "server", message: "ThrottlingException: slow down" })).toBe("rate_limit");
    expect(failoverReason({ kind: "context_length", status: 400, message: "prompt is too long" })).toBe("context_overflow");
    expect(failoverReason({ kind: "malformed", message: "stream ended early" })).toBe("format");
    expect(failoverReason({ kind: "bad_request", status: 400, message: "Invalid schema for function 'read'" })).toBe("format");
    expect(failoverReason({ kind: "aborted", message: "request aborted" })).toBe("aborted");
  });
});

describe("thinking levels and params on the wire", () => {
  const model = (api: "anthropic-messages" | "openai-completions" | "openai-responses", reasoning: boolean, maxTokens = 8192) => ({
    ref: `p/m`,
    provider: "p",
    id: "m",
    api,
    contextWindow: 100_000,
    maxTokens,
    reasoning,
    input: ["text" as const],
  });

  it("maps a level per API, capping the Anthropic budget below max_tokens", () => {
    expect(wireSettings({ model: model("anthropic-messages", true), thinking: "high" }).fields.thinking).toEqual({ type: "enabled", budget_tokens: 7_168 });
    expect(wireSettings({ model: model("anthropic-messages", true, 64_000), thinking: "low" }).fields.thinking).toEqual({ type: "enabled", budget_tokens: 4_096 });
    expect(wireSettings({ model: model("openai-completions", true), thinking: "xhigh" }).fields).toEqual({ reasoning_effort: "high" });
    expect(wireSettings({ model: model("openai-responses", true), thinking: "minimal" }).fields).toEqual({ reasoning: { effort: "minimal" } });
  });

  it("drops what a model or API cannot take, and says so", () => {
    const notReasoning = wireSettings({ model: model("openai-completions", false), thinking: "high" });
    expect(notReasoning.fields).toEqual({});
    expect(notReasoning.dropped[0]).toContain("not a reasoning model");
    const tooSmall = wireSettings({ model: model("anthropic-messages", true, 1500), thinking: "low" });
    expect(tooSmall.fields.thinking).toBeUndefined();
    expect(tooSmall.dropped[0]).toContain("1024-token minimum");
    const params = wireSettings({ model: model("anthropic-messages", false), params: { temperature: 0.3, stop: "END", maxTokens: 512 } });
    expect(params).toEqual({ fields: { stop_sequences: ["END"] }, maxTokens: 512, dropped: ["params.temperature (not sent to anthropic-messages)"] });
  });
});
