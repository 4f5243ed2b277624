import os from "node:os";
import { describe, expect, it } from "vitest";
import { defaultConfig, validateConfig } from "../../../src/config/index.js";

describe("defaults", () => {
  it("fills every documented default when nothing is configured", () => {
    const config = defaultConfig();
    expect(config.gateway).toEqual({
      mode: "local",
      port: 18789,
      bind: "loopback",
      auth: { mode: "token", rateLimit: { maxAttempts: 10, windowMs: 60000, lockoutMs: 300000, exemptLoopback: true } },
      reload: { mode: "hybrid" },
      http: { endpoints: { chatCompletions: { enabled: false }, responses: { enabled: false } } },
    });
    expect(config.gateway.auth).not.toHaveProperty("token");
    expect(config.logging).toEqual({ level: "info" });
    expect(config.agents.defaults).toEqual({
      timeoutSeconds: 172800,
      maxConcurrent: Math.min(16, Math.max(8, os.cpus().length)),
      bootstrapMaxChars: 20000,
      bootstrapTotalMaxChars: 60000,
    });
    expect(config.session).toEqual({ scope: "per-sender", dmScope: "main", mainKey: "main" });
    expect(config.models).toEqual({ mode: "merge" });
  });

  it("keeps configured values and fills only the gaps", () => {
    const { config } = validateConfig({ gateway: { port: 3000, auth: { rateLimit: { maxAttempts: 3 } } }, session: { dmScope: "per-peer" } }, {});
    expect(config.gateway.port).toBe(3000);
    expect(config.gateway.bind).toBe("loopback");
    expect(config.gateway.auth.rateLimit).toEqual({ maxAttempts: 3, windowMs: 60000, lockoutMs: 300000, exemptLoopback: true });
    expect(config.session).toEqual({ scope: "per-sender", dmScope: "per-peer", mainKey: "main" });
  });

  it("picks password auth when only a password is set, token otherwise", () => {
    expect(validateConfig({ gateway: { auth: { password: "p" } } }, {}).config.gateway.auth.mode).toBe("password");
    expect(validateConfig({ gateway: { auth: { token: "t" } } }, {}).config.gateway.auth.mode).toBe("token");
    expect(validateConfig({ gateway: { auth: { token: "", password: "p" } } }, {}).config.gateway.auth.mode).toBe("password");
    expect(validateConfig({ gateway: { auth: { mode: "none", password: "p" } } }, {}).config.gateway.auth.mode).toBe("none");
  });

  it("never mutates its input and never shares objects between results", () => {
    const raw = { gateway: { auth: { token: "t" } }, agents: { list: [{ id: "main" }] } };
    const snapshot = structuredClone(raw);
    const first = validateConfig(raw, {}).config;
    expect(raw).toEqual(snapshot);
    first.gateway.auth.rateLimit.maxAttempts = 99;
    first.agents.list![0]!.name = "changed";
    expect(raw).toEqual(snapshot);
    expect(defaultConfig().gateway.auth.rateLimit.maxAttempts).toBe(10);
    expect(validateConfig(raw, {}).config.gateway.auth.rateLimit.maxAttempts).toBe(10);
  });
});
