import { describe, expect, it } from "vitest";
import { diffConfigPaths, restartRequiredPaths } from "../../../src/config/index.js";

describe("diffConfigPaths", () => {
  it("lists changed, added and removed leaves, sorted", () => {
    const a = { gateway: { port: 1, auth: { token: "a" } }, logging: { level: "info" }, agents: { list: [{ id: "main" }] } };
    const b = {
      gateway: { port: 2, auth: {} },
      logging: { level: "info", file: "/x.log" },
      agents: { list: [{ id: "main" }, { id: "ops", name: "Ops" }] },
      session: { reset: { mode: "daily" } },
    };
    expect(diffConfigPaths(a, b)).toEqual(["agents.list[1].id", "agents.list[1].name", "gateway.auth.token", "gateway.port", "logging.file", "session.reset.mode"]);
  });

  it("returns nothing for equal configs and the path itself when the kind changes", () => {
    expect(diffConfigPaths({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2 }] } })).toEqual([]);
    expect(diffConfigPaths({ a: { b: 1 } }, { a: "x" })).toEqual(["a"]);
    expect(diffConfigPaths({ a: [1, 2] }, { a: [1] })).toEqual(["a[1]"]);
    expect(diffConfigPaths({ m: { "openai/gpt": 1 } }, { m: { "openai/gpt": 2 } })).toEqual(['m["openai/gpt"]']);
  });
});

describe("restartRequiredPaths", () => {
  it("needs a restart for gateway.* except reload, remote, the /v1 switches, the trusted proxies and the auth rate limit", () => {
    const changed = [
      "agents.defaults.model",
      "gateway.auth.rateLimit.maxAttempts",
      "gateway.auth.token",
      "gateway.http.endpoints.chatCompletions.enabled",
      "gateway.port",
      "gateway.reload.mode",
      "gateway.remote.url",
      "gateway.remoteness",
      "gateway.trustedProxies[0]",
      "gateway.allowRealIpFallback",
      "gateway.bind",
      "logging.level",
      "models.providers.fake.apiKey",
    ];
    expect(restartRequiredPaths(changed)).toEqual(["gateway.auth.token", "gateway.port", "gateway.remoteness", "gateway.bind"]);
    expect(restartRequiredPaths(["gateway"])).toEqual(["gateway"]);
    expect(restartRequiredPaths([])).toEqual([]);
  });

  it("needs a restart for the webhook path and body cap, not for the rest of hooks.*", () => {
    expect(restartRequiredPaths(["hooks.enabled", "hooks.maxBodyBytes", "hooks.mappings[0].match.path", "hooks.path", "hooks.token"])).toEqual([
      "hooks.maxBodyBytes",
      "hooks.path",
    ]);
  });

  it("needs a restart for the log destination, not for its level", () => {
    expect(restartRequiredPaths(["logging.level", "logging.file", "logging.maxFileBytes", "logging.redactPatterns[0]"])).toEqual([
      "logging.file",
      "logging.maxFileBytes",
      "logging.redactPatterns[0]",
    ]);
  });
});
