import { describe, expect, it } from "vitest";
import { resolveEffectiveTools } from "../../../src/agents/policy/index.js";
import { effectiveMaxSpawnDepth, maySpawnAtDepth } from "../../../src/agents/policy/subagent-tool-limits.js";

const available = [
  "read",
  "write",
  "exec",
  "sessions_spawn",
  "subagents",
  "sessions_send",
  "sessions_list",
  "sessions_history",
  "sessions_search",
  "session_status",
  "progress_card",
];
const resolve = (spawnDepth: number | undefined, maxSpawnDepth?: number) =>
  resolveEffectiveTools({ config: { agents: { defaults: { subagents: { maxSpawnDepth } } } }, agentId: "main", senderIsOwner: true, ownerOnlyTools: [], available, spawnDepth });

describe("the sub-agent tool limits", () => {
  it("leave a main session alone, and add no layer to its explanation", () => {
    const result = resolve(undefined);
    expect(result.allowed).toEqual(available);
    expect(result.steps.map((s) => s.stage)).not.toContain("subagent");
  });

  it("take from every sub-agent the tools for talking to other sessions and the gateway", () => {
    const leaf = resolve(1);
    expect(leaf.allowed).toEqual(["read", "write", "exec"]);
    expect(leaf.removed.find((r) => r.tool === "sessions_send")).toMatchObject({
      stage: "subagent",
      layer: "sub-agent limits",
      reason: "not available to a leaf sub-agent at depth 1",
    });
    // Reading other sessions goes with managing children: a leaf loses sessions_search as it loses sessions_history.
    expect(leaf.removed.find((r) => r.tool === "sessions_search")).toMatchObject({ stage: "subagent", reason: "not available to a leaf sub-agent at depth 1" });
    // The progress card is the parent's: no sub-agent, orchestrator or leaf, gets progress_card.
    expect(leaf.removed.find((r) => r.tool === "progress_card")).toMatchObject({ stage: "subagent" });
    expect(resolve(1, 2).allowed).not.toContain("progress_card");
  });

  it("let a depth-1 orchestrator (maxSpawnDepth 2) keep its spawning tools; depth 2 is always a leaf", () => {
    expect(resolve(1, 2).allowed).toEqual(["read", "write", "exec", "sessions_spawn", "subagents", "sessions_list", "sessions_history", "sessions_search"]);
    expect(resolve(2, 2).allowed).toEqual(["read", "write", "exec"]);
    expect(resolve(2, 5).allowed).toEqual(["read", "write", "exec"]);
    expect([effectiveMaxSpawnDepth(undefined), effectiveMaxSpawnDepth(0), effectiveMaxSpawnDepth(9)]).toEqual([1, 0, 2]);
    expect([maySpawnAtDepth(0, 1), maySpawnAtDepth(1, 1), maySpawnAtDepth(1, 2), maySpawnAtDepth(2, 5)]).toEqual([true, false, true, false]);
  });
});
