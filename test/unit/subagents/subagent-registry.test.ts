import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SubagentRegistry } from "../../../src/agents/subagents/subagent-registry.js";
import { makeRecord, tempStateDir } from "./helpers.js";

describe("SubagentRegistry", () => {
  it("persists records, and a new registry on the same state dir loads them with their indexes", async () => {
    const state = tempStateDir();
    const registry = new SubagentRegistry(state);
    registry.load();
    const parent = makeRecord({ runId: "p", childSessionKey: "agent:main:subagent:p" });
    const child = makeRecord({ runId: "c", requesterSessionKey: "agent:main:subagent:p", childSessionKey: "agent:main:subagent:p:subagent:c", depth: 2 });
    registry.add(parent);
    registry.add(child);
    await registry.whenDurable();

    const again = new SubagentRegistry(state);
    again.load();
    expect(again.get("c")).toEqual(child);
    expect(again.forChild("agent:main:subagent:p")?.runId).toBe("p");
    expect(again.childrenOf("agent:main:subagent:p").map((r) => r.runId)).toEqual(["c"]);
    expect(again.descendantsOf("agent:main:main").map((r) => r.runId)).toEqual(["p", "c"]);
  });

  it("coalesces a burst of changes into few writes, and whenDurable covers the latest change", async () => {
    const state = tempStateDir();
    const registry = new SubagentRegistry(state);
    registry.load();
    const record = makeRecord();
    registry.add(record);
    for (let i = 0; i < 100; i++) {
      record.accumulatedRuntimeMs = i;
      registry.changed();
    }
    await registry.whenDurable();
    const onDisk = JSON.parse(fs.readFileSync(path.join(state, "subagents", "runs.json"), "utf8"));
    expect(onDisk.runs[0].accumulatedRuntimeMs).toBe(99);
    expect(fs.readdirSync(path.join(state, "subagents")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("sets a damaged file aside and starts empty, saying so", () => {
    const state = tempStateDir();
    fs.mkdirSync(path.join(state, "subagents"), { recursive: true });
    fs.writeFileSync(path.join(state, "subagents", "runs.json"), "{ not json");
    const warnings: string[] = [];
    const registry = new SubagentRegistry(state, { onWarning: (m) => warnings.push(m) });
    registry.load();
    expect(registry.all()).toEqual([]);
    expect(warnings[0]).toMatch(/unreadable .* moved to .*runs\.json\.corrupt-/);
    expect(fs.readdirSync(path.join(state, "subagents")).some((f) => f.startsWith("runs.json.corrupt-"))).toBe(true);
  });

  it("freezes results up to 100 KB inline and larger ones to a file, keeping the first 100 KB", () => {
    const state = tempStateDir();
    const registry = new SubagentRegistry(state);
    registry.load();
    const small = makeRecord();
    registry.freezeResult(small, "short");
    expect(small).toMatchObject({ frozenResultText: "short", frozenResultBytes: 5 });
    expect(small.frozenResultFile).toBeUndefined();

    const big = makeRecord();
    const text = "é".repeat(60 * 1024); // 120 KB of 2-byte characters
    registry.freezeResult(big, text);
    expect(big.frozenResultBytes).toBe(120 * 1024);
    expect(Buffer.byteLength(big.frozenResultText!, "utf8")).toBe(100 * 1024);
    expect(big.frozenResultText!.endsWith("é")).toBe(true);
    expect(fs.readFileSync(big.frozenResultFile!, "utf8")).toBe(text);
    expect(registry.fullResult(big)).toBe(text);
    registry.add(big);
    registry.remove(big.runId);
    expect(fs.existsSync(big.frozenResultFile!)).toBe(false);
  });

  it("keeps memory bounded: the oldest settled records go once more than maxEnded ended", () => {
    const registry = new SubagentRegistry(tempStateDir(), { maxEnded: 3 });
    registry.load();
    for (let i = 0; i < 5; i++) {
      registry.add(
        makeRecord({
          runId: `r${i}`,
          endedAt: 1_000 + i,
          roundOpen: false,
          announce: { round: 1, key: `k${i}`, state: "answered", targetSessionKey: "agent:main:main", attempts: 1, createdAt: 0, dueBy: 0 },
        }),
      );
    }
    // One whose announcement is still owed is never dropped, however old.
    registry.add(
      makeRecord({
        runId: "owed",
        endedAt: 1,
        roundOpen: false,
        announce: { round: 1, key: "ko", state: "pending", targetSessionKey: "agent:main:main", attempts: 0, createdAt: 0, dueBy: 0 },
      }),
    );
    expect(
      registry
        .all()
        .map((r) => r.runId)
        .sort(),
    ).toEqual(["owed", "r2", "r3", "r4"]);
  });
});
