import { describe, expect, it } from "vitest";
import { buildSubagentSessionKey, isMainSessionKey, isSubagentSessionKey, subagentDepth } from "../../../src/sessions/keys/index.js";
import { InternalTurnQueue } from "../../../src/conversations/internal-turn-queue.js";

describe("sub-agent session keys", () => {
  it("carry their depth: a child of a child extends its parent's chain", () => {
    const child = buildSubagentSessionKey("main", "agent:main:main", "c1");
    const grandchild = buildSubagentSessionKey("worker", child, "c2");
    expect(child).toBe("agent:main:subagent:c1");
    expect(grandchild).toBe("agent:worker:subagent:c1:subagent:c2");
    expect([subagentDepth("agent:main:main"), subagentDepth(child), subagentDepth(grandchild)]).toEqual([0, 1, 2]);
    expect(isSubagentSessionKey("agent:main:telegram:subagent:x")).toBe(false);
    expect(subagentDepth("not a key")).toBe(0);
    expect([isMainSessionKey("agent:main:main", "main"), isMainSessionKey(child, "main"), isMainSessionKey("agent:x:home", "Home")]).toEqual([true, false, true]);
  });
});

describe("InternalTurnQueue", () => {
  it("gives each message its own turn, except mergeable ones that waited together", () => {
    const queue = new InternalTurnQueue();
    const msg = (runId: string, mergeable: boolean) => ({ runId, agentId: "main", text: runId, mergeable, senderIsOwner: true });
    for (const m of [msg("a1", true), msg("a2", true), msg("s1", false), msg("a3", true)]) queue.add("k", m);
    expect(queue.take("k")!.map((m) => m.runId)).toEqual(["a1", "a2"]);
    expect(queue.take("k")!.map((m) => m.runId)).toEqual(["s1"]);
    expect(queue.pendingCount("k")).toBe(1);
    expect(queue.clear("k").map((m) => m.runId)).toEqual(["a3"]);
    expect(queue.take("k")).toBeUndefined();
  });
});
