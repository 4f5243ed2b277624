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

  it("lets a finished run go of its own abort controller; the live run's signal is untouched by later aborts", () => {
    const runs = new RunRegistry();
    const run = runs.create("r1", "k", "main");
    const liveSignal = run.controller.signal;
    runs.finish("r1", "ok");
    expect(run.controller.signal).not.toBe(liveSignal);
    run.controller.abort(new Error("late abort"));
    expect(liveSignal.aborted).toBe(false);
    // Finishing twice keeps the first outcome.
    runs.finish("r1", "error");
    expect(runs.get("r1")?.status).toBe("ok");
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
