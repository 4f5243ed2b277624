import { describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { spawnTargets } from "../../../src/agents/subagents/spawn-targets.js";

const config = (raw: Record<string, unknown>) => applyDefaults(raw as never) as OpenClawConfig;
const agents = (defaults: Record<string, unknown>, entries: Record<string, unknown>) => config({ agents: { defaults: { model: "fake/base", ...defaults }, entries } });

describe("spawnTargets (agents_list)", () => {
  it("lists the requester first, then the allowed agents by id; an agent outside allowAgents is left out", () => {
    const cfg = agents({}, { zed: {}, main: { default: true, subagents: { allowAgents: ["zed", "alpha"] } }, alpha: { name: "Alpha", model: "fake/alpha" }, hidden: {} });
    expect(spawnTargets(cfg, { agentId: "Main", depth: 0 })).toEqual({
      requester: "main",
      allowAny: false,
      agents: [
        { id: "main", model: "fake/base" },
        { id: "alpha", name: "Alpha", model: "fake/alpha" },
        { id: "zed", model: "fake/base" },
      ],
    });
  });

  it("`*` allows every configured agent that tools.agentToAgent.allow lets it reach", () => {
    const cfg = config({
      agents: { defaults: { model: "fake/base", subagents: { allowAgents: ["*"] } }, entries: { main: { default: true }, ops: {}, vault: {} } },
      tools: { agentToAgent: { allow: ["main", "ops"] } },
    });
    const targets = spawnTargets(cfg, { agentId: "main", depth: 0 });
    expect(targets.allowAny).toBe(true);
    expect(targets.agents.map((a) => a.id)).toEqual(["main", "ops"]);
  });

  it("names the model a child would run on: the requester's subagents.model, else what its parent gave it, else the target's", () => {
    const own = agents({}, { main: { default: true, subagents: { model: "fake/cheap", allowAgents: ["ops"] } }, ops: { model: "fake/ops" } });
    expect(spawnTargets(own, { agentId: "main", depth: 0 }).agents.map((a) => a.model)).toEqual(["fake/cheap", "fake/cheap"]);
    const inherited = agents({}, { main: { default: true, subagents: { allowAgents: ["ops"] } }, ops: { model: "fake/ops" } });
    expect(spawnTargets(inherited, { agentId: "main", depth: 1, inheritedModel: "fake/given" }).agents.map((a) => a.model)).toEqual(["fake/given", "fake/given"]);
  });

  it("says why a session cannot spawn at all: sub-agents off, or already as deep as children may go", () => {
    const base = { main: { default: true } };
    expect(spawnTargets(agents({}, base), { agentId: "main", depth: 0 }).cannotSpawn).toBeUndefined();
    expect(spawnTargets(agents({}, base), { agentId: "main", depth: 1 }).cannotSpawn).toMatch(/not allowed at depth 1.*limit is 1/);
    expect(spawnTargets(agents({ subagents: { maxSpawnDepth: 0 } }, base), { agentId: "main", depth: 0 }).cannotSpawn).toMatch(/turned off/);
  });
});
