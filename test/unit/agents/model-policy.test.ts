import { describe, expect, it } from "vitest";
import { modelAllowed, refMatchesAllow, resolveModelPolicy } from "../../../src/agents/model-policy.js";
import { checkModelChoice } from "../../../src/agents/session-controls.js";
import { prepareSpawn } from "../../../src/agents/subagents/prepare-spawn.js";
import { validateConfig } from "../../../src/config/index.js";
import { makeTempDir } from "../tools/helpers.js";

const providers = {
  alpha: { baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", api: "openai-completions", models: [{ id: "a1" }, { id: "a2" }] },
  beta: { baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", api: "openai-completions", models: [{ id: "b1" }] },
  gamma: { baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", api: "openai-completions", models: [{ id: "vendor/g1" }, { id: "other/g2" }] },
};

function config(agents: unknown) {
  return validateConfig({ agents, models: { providers } }, {}).config;
}

describe("refMatchesAllow", () => {
  it("matches exact refs and provider/* prefixes at every / of the ref", () => {
    expect(refMatchesAllow(["alpha/a1"], "alpha/a1")).toBe(true);
    expect(refMatchesAllow(["alpha/a1"], "alpha/a2")).toBe(false);
    expect(refMatchesAllow(["beta/*"], "beta/b1")).toBe(true);
    expect(refMatchesAllow(["gamma/*"], "gamma/vendor/g1")).toBe(true);
    expect(refMatchesAllow(["gamma/vendor/*"], "gamma/vendor/g1")).toBe(true);
    expect(refMatchesAllow(["gamma/vendor/*"], "gamma/other/g2")).toBe(false);
    expect(refMatchesAllow(["alp/*"], "alpha/a1")).toBe(false);
  });
});

describe("modelAllowed", () => {
  it("allows any model when no policy is set or its allow list is empty", () => {
    expect(modelAllowed(config({ defaults: { model: "alpha/a1" } }), "main", "beta/b1")).toEqual({ ok: true });
    expect(modelAllowed(config({ defaults: { model: "alpha/a1", modelPolicy: { allow: [] } } }), "main", "beta/b1")).toEqual({ ok: true });
  });

  it("refuses a model outside agents.defaults.modelPolicy.allow, naming the ref, the key, what it allows and the fix", () => {
    const cfg = config({ defaults: { model: "alpha/a1", modelPolicy: { allow: ["alpha/a2", "beta/*"] } } });
    expect(modelAllowed(cfg, "main", "alpha/a2")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "main", "beta/b1")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "main", "gamma/vendor/g1")).toEqual({
      ok: false,
      message:
        'Model "gamma/vendor/g1" is not allowed for agent "main" by agents.defaults.modelPolicy.allow (allows: alpha/a2, beta/*). Add "gamma/vendor/g1" or "gamma/*" to agents.defaults.modelPolicy.allow, or pick an allowed model (/model list).',
    });
  });

  it("always allows the agent's own primary and fallbacks, written as aliases too", () => {
    const cfg = config({
      defaults: { model: { primary: "first", fallbacks: ["beta/b1"] }, models: { "alpha/a1": { alias: "first" } }, modelPolicy: { allow: ["gamma/*"] } },
    });
    expect(modelAllowed(cfg, "main", "alpha/a1")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "main", "beta/b1")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "main", "alpha/a2").ok).toBe(false);
  });

  it("an agent's own non-empty allow list replaces the defaults' one", () => {
    const cfg = config({
      defaults: { model: "alpha/a1", modelPolicy: { allow: ["beta/*"] } },
      entries: { main: { default: true }, ops: { modelPolicy: { allow: ["gamma/vendor/*"] } }, quiet: { modelPolicy: { allow: [] } } },
    });
    expect(resolveModelPolicy(cfg, "ops")?.keyPath).toBe("agents.entries.ops.modelPolicy.allow");
    expect(modelAllowed(cfg, "ops", "gamma/vendor/g1")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "ops", "beta/b1").ok).toBe(false);
    expect(modelAllowed(cfg, "main", "beta/b1")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "quiet", "beta/b1")).toEqual({ ok: true });
    expect(modelAllowed(cfg, "quiet", "gamma/vendor/g1").ok).toBe(false);
  });

  it("names the agents.list item when the agent is written in the array spelling", () => {
    const cfg = config({
      defaults: { model: "alpha/a1" },
      list: [
        { id: "main", default: true },
        { id: "ops", modelPolicy: { allow: ["beta/*"] } },
      ],
    });
    expect(resolveModelPolicy(cfg, "ops")?.keyPath).toBe("agents.list[1].modelPolicy.allow");
  });

  it("checkModelChoice applies the policy after resolving an alias to its ref", () => {
    const cfg = config({ defaults: { model: "alpha/a1", models: { "beta/b1": { alias: "bee" } }, modelPolicy: { allow: ["beta/*"] } } });
    expect(checkModelChoice("bee", "main", cfg, {})).toEqual({ ok: true, ref: "beta/b1" });
    const refused = checkModelChoice("alpha/a2", "main", cfg, {});
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toContain('Model "alpha/a2" is not allowed for agent "main" by agents.defaults.modelPolicy.allow');
  });
});

describe("sessions_spawn model", () => {
  const caller = { agentId: "main", sessionKey: "agent:main:main", senderIsOwner: true } as never;
  const cfg = config({
    defaults: { model: "alpha/a1", modelPolicy: { allow: ["beta/*"] } },
    entries: { main: { default: true, subagents: { allowAgents: ["ops"] } }, ops: { modelPolicy: { allow: ["gamma/*"] } } },
  });
  const deps = () => ({ config: cfg, stateDir: makeTempDir(), env: {}, now: Date.now(), activeChildren: 0 });

  it("is refused with the policy's message when the target agent may not use it, not swapped for another", () => {
    expect(prepareSpawn(caller, { task: "t", model: "alpha/a2" } as never, deps())).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining('sessions_spawn: Model "alpha/a2" is not allowed for agent "main" by agents.defaults.modelPolicy.allow'),
      suggestion: expect.stringContaining("Spawn without model"),
    });
    expect(prepareSpawn(caller, { task: "t", agentId: "ops", model: "beta/b1" } as never, deps())).toMatchObject({
      message: expect.stringContaining("by agents.entries.ops.modelPolicy.allow"),
    });
  });

  it("keeps an allowed model for the child", () => {
    const ok = prepareSpawn(caller, { task: "t", model: "beta/b1" } as never, deps());
    expect("record" in ok && ok.record.model).toBe("beta/b1");
    const ops = prepareSpawn(caller, { task: "t", agentId: "ops", model: "gamma/vendor/g1" } as never, deps());
    expect("record" in ops && ops.record.model).toBe("gamma/vendor/g1");
  });
});
