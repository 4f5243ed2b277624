import { describe, expect, it } from "vitest";
import { RunRegistry } from "../../../src/conversations/run-registry.js";

describe("RunRegistry", () => {
  it("tracks a run from accepted to finished and resolves done with its outcome", async () => {
    const runs = new RunRegistry();
    const run = runs.create("r1", "agent:main:main", "main");
    expect(runs.activeFor("agent:main:main").map((r) => r.runId)).toEqual(["r1"]);
    runs.markRunning("r1");
    expect(runs.get("r1")?.status).toBe("running");
    runs.finish("r1", "ok");
    await expect(run.done).resolves.toMatchObject({ runId: "r1", status: "ok" });
    expect(runs.activeFor("agent:main:main")).toEqual([]);
    expect(runs.get("r1")?.endedAt).toBeTypeOf("number");
  });

  it("tells a run's turn of its abort once, keeps the first reason, and lets a finished run go of its turn", () => {
    const runs = new RunRegistry();
    const run = runs.create("r1", "k", "main");
    const told: string[] = [];
    run.onAbort = (reason) => told.push(reason.message);
    runs.abort(run, new Error("first"));
    runs.abort(run, new Error("second"));
    expect(told).toEqual(["first"]);
    expect(run.abortReason?.message).toBe("first");

    const waiting = runs.create("r2", "k", "main");
    runs.abort(waiting, new Error("before it ran"));
    expect(waiting.abortReason?.message).toBe("before it ran");

    const finished = runs.create("r3", "k", "main");
    finished.onAbort = (reason) => told.push(reason.message);
    runs.finish("r3", "ok");
    expect(finished.onAbort).toBeUndefined();
    runs.abort(finished, new Error("late abort"));
    expect(finished.abortReason).toBeUndefined();
    expect(told).toEqual(["first"]);
    // Finishing twice keeps the first outcome.
    runs.finish("r3", "error");
    expect(runs.get("r3")?.status).toBe("ok");
  });

  it("forgets finished runs past 1,000, oldest first", () => {
    const runs = new RunRegistry();
    for (let i = 0; i < 1_005; i++) {
      runs.create(`r${i}`, "k", "main");
      runs.finish(`r${i}`, "ok");
    }
    expect(runs.get("r0")).toBeUndefined();
    expect(runs.get("r4")).toBeUndefined();
    expect(runs.get("r5")?.status).toBe("ok");
    expect(runs.all()).toHaveLength(1_000);
  });
});
