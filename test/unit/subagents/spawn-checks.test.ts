import { describe, expect, it } from "vitest";
import { checkSpawn, type SpawnCheckInput, spawnText } from "../../../src/agents/subagents/spawn-checks.js";
import type { SubagentSettings } from "../../../src/agents/subagents/subagent-config.js";

const settings: SubagentSettings = { maxDepth: 1, maxChildrenPerAgent: 5, maxConcurrent: 8, allowAgents: ["main"], runTimeoutSeconds: 0, archiveAfterMinutes: 60 };

function input(overrides: Partial<SpawnCheckInput> = {}): SpawnCheckInput {
  return {
    requesterSessionKey: "agent:main:main",
    requesterAgentId: "main",
    requesterDepth: 0,
    targetAgentId: "main",
    activeChildren: 0,
    settings,
    knownAgents: ["main", "worker"],
    agentToAgent: { allows: () => true },
    sandbox: "inherit",
    sandboxProblem: "agent main has sandbox.mode off",
    ...overrides,
  };
}

describe("checkSpawn", () => {
  it("lets a main session spawn as its own agent", () => {
    expect(checkSpawn(input())).toBeUndefined();
  });

  it("depth: a depth-1 child may spawn only when maxSpawnDepth ≥ 2, and depth 2 never may", () => {
    expect(checkSpawn(input({ requesterDepth: 1 }))).toMatchObject({ code: "SPAWN_DEPTH_EXCEEDED" });
    expect(checkSpawn(input({ requesterDepth: 1 }))?.message).toMatch(/not allowed at depth 1.*limit is 1 \(agents\.defaults\.subagents\.maxSpawnDepth\)/);
    expect(checkSpawn(input({ requesterDepth: 1 }))?.suggestion).toMatch(/leaf worker/);
    expect(checkSpawn(input({ requesterDepth: 1, settings: { ...settings, maxDepth: 2 } }))).toBeUndefined();
    expect(checkSpawn(input({ requesterDepth: 2, settings: { ...settings, maxDepth: 2 } }))).toMatchObject({ code: "SPAWN_DEPTH_EXCEEDED" });
    expect(checkSpawn(input({ settings: { ...settings, maxDepth: 0 } }))).toMatchObject({ code: "SUBAGENTS_DISABLED" });
  });

  it("children limit: refuses the spawn that would exceed maxChildrenPerAgent", () => {
    expect(checkSpawn(input({ activeChildren: 4 }))).toBeUndefined();
    const refusal = checkSpawn(input({ activeChildren: 5 }));
    expect(refusal).toMatchObject({ code: "TOO_MANY_CHILDREN" });
    expect(refusal?.message).toMatch(/already has 5 unfinished sub-agents; the limit is 5/);
  });

  it("allowlist: other agents only when allowAgents names them (or has *), and tools.agentToAgent.allow agrees", () => {
    const refusal = checkSpawn(input({ targetAgentId: "worker" }));
    expect(refusal).toMatchObject({ code: "AGENT_NOT_ALLOWED" });
    expect(refusal?.message).toMatch(/^agentId is not allowed for sessions_spawn/);
    expect(refusal?.suggestion).toMatch(/agents\.entries\.main\.subagents\.allowAgents/);
    expect(checkSpawn(input({ targetAgentId: "worker", settings: { ...settings, allowAgents: ["main", "worker"] } }))).toBeUndefined();
    expect(checkSpawn(input({ targetAgentId: "worker", settings: { ...settings, allowAgents: ["*"] } }))).toBeUndefined();
    expect(checkSpawn(input({ targetAgentId: "worker", settings: { ...settings, allowAgents: ["*"] }, agentToAgent: { allows: () => false } }))?.message).toMatch(
      /tools\.agentToAgent\.allow/,
    );
    expect(checkSpawn(input({ targetAgentId: "ghost", settings: { ...settings, allowAgents: ["*"] } }))).toMatchObject({ code: "UNKNOWN_AGENT" });
  });

  it("sandbox: require cannot be met by a gateway without a sandbox", () => {
    expect(checkSpawn(input({ sandbox: "require" }))).toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
    expect(checkSpawn(input({ sandbox: "require", sandboxProblem: undefined }))).toBeUndefined();
  });
});

describe("spawnText", () => {
  it("trims the task and label a spawn gives", () => {
    expect(spawnText({ task: "  find the bug \n", label: " hunt " })).toEqual({ task: "find the bug", label: "hunt" });
    expect(spawnText({ task: "x".repeat(100_000) })).toEqual({ task: "x".repeat(100_000), label: undefined });
  });

  it("refuses an empty or too long task and a too long label, saying how long it is", () => {
    expect(spawnText({ task: " \n " })).toMatchObject({ code: "INVALID_ARGUMENT", message: "task is empty." });
    expect(spawnText({ task: "x".repeat(100_001) })).toMatchObject({ code: "INVALID_ARGUMENT", message: "task is 100001 characters; at most 100000." });
    expect(spawnText({ task: "t", label: "l".repeat(201) })).toMatchObject({ code: "INVALID_ARGUMENT", message: "label is 201 characters; at most 200." });
  });
});
