import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { AuthProfileStore, modelsAuthStatus } from "../../../../src/models/failover/index.js";

const config = (raw: unknown = {}) => validateConfig(raw, {}).config;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function storeWith(content: unknown, now: number): AuthProfileStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "auth-status-"));
  dirs.push(dir);
  const file = path.join(dir, "auth-profiles.json");
  fs.writeFileSync(file, JSON.stringify(content));
  return new AuthProfileStore(file, () => now);
}

describe("modelsAuthStatus", () => {
  const now = 1_000_000_000_000;

  it("a billing failure shows the key disabled until its time, without a model", () => {
    const store = storeWith(
      {
        version: 1,
        profiles: { "p:paid": { type: "api_key", provider: "p", key: "k-paid-0123456789" } },
        usageStats: { "p:paid": { disabledUntil: now + 60_000, disabledReason: "billing", billingCount: 1 } },
      },
      now,
    );
    const status = modelsAuthStatus({ config: config(), env: {}, agentId: "main", store, now });
    expect(status.providers).toEqual([
      {
        provider: "p",
        authProvider: "p",
        displayName: "p",
        status: "static",
        profiles: [{ profileId: "p:paid", type: "api_key", status: "static", source: "saved", state: "disabled", cooldownUntil: now + 60_000, reason: "billing" }],
      },
    ]);
  });

  it("an expired cooldown is ready again", () => {
    const store = storeWith(
      {
        version: 1,
        profiles: { "p:a": { type: "api_key", provider: "p", key: "k-a-0123456789" } },
        usageStats: { "p:a": { cooldownUntil: now - 1, cooldownReason: "auth", errorCount: 1 } },
      },
      now,
    );
    const [provider] = modelsAuthStatus({ config: config(), env: {}, agentId: "main", store, now }).providers;
    expect(provider!.profiles).toEqual([{ profileId: "p:a", type: "api_key", status: "static", source: "saved", state: "ready", errorCount: 1 }]);
  });

  it("an auth.order that names none of the keys leaves the provider missing, saying why", () => {
    const store = storeWith({ version: 1, profiles: {} }, now);
    const cfg = config({ auth: { order: { p: ["p:gone"] } } });
    const [provider] = modelsAuthStatus({ config: cfg, env: { P_API_KEY: "k-env-0123456789" }, agentId: "main", store, now }).providers;
    expect(provider).toMatchObject({ provider: "p", status: "missing", profiles: [], profileOrder: ["p:gone"], apiKey: { source: "env", envVar: "P_API_KEY" } });
    expect(provider!.problem).toContain("auth.order.p");
    expect(JSON.stringify(provider)).not.toContain("k-env-0123456789");
  });

  it("a local Ollama in the model chain needs no key; a built-in without one and outside the chain is not listed", () => {
    const store = storeWith({ version: 1, profiles: {} }, now);
    const { providers } = modelsAuthStatus({ config: config(), env: {}, agentId: "main", store, alsoProviders: ["ollama"], now });
    expect(providers).toEqual([{ provider: "ollama", authProvider: "ollama", displayName: "ollama", status: "missing", profiles: [], keyOptional: true }]);
  });
});
