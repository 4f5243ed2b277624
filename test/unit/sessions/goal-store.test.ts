import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GoalRefusal, GoalStore, GoalTransitionError, type SessionGoal } from "../../../src/sessions/goal/index.js";
import { SessionStore } from "../../../src/sessions/store/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup(dir = fs.mkdtempSync(path.join(os.tmpdir(), "goal-store-"))) {
  dirs.push(dir);
  const sessions = new SessionStore(dir);
  const changes: [string, SessionGoal | null][] = [];
  let id = 0;
  const goals = new GoalStore({ sessions, onChanged: (key, goal) => changes.push([key, goal]), now: () => 1_000, newId: () => `g${++id}` });
  return { dir, sessions, goals, changes };
}

const KEY = "agent:main:work";
const target = { sessionKey: KEY, agentId: "main" };

describe("GoalStore", () => {
  it("creates, changes and clears a goal, on disk before it answers, telling onChanged", async () => {
    const { dir, sessions, goals, changes } = setup();
    sessions.ensure(KEY);
    expect(goals.read(KEY)).toBeNull();
    const created = await goals.create(target, { objective: "ship", tokenBudget: 10 });
    expect(created).toMatchObject({ id: "g1", status: "active", tokenBudget: 10 });
    await expect(goals.create(target, { objective: "again" })).rejects.toThrow(new GoalTransitionError("goal already exists"));
    await goals.setStatus(target, "paused", "lunch");
    // A second store over the same directory reads what the first wrote (a restart).
    const reread = setup(dir);
    expect(reread.goals.read(KEY)).toMatchObject({ status: "paused", lastStatusNote: "lunch", objective: "ship" });
    expect(await goals.clear(target)).toBe(true);
    expect(await goals.clear(target)).toBe(false);
    expect(goals.read(KEY)).toBeNull();
    expect(changes.map(([, g]) => g?.status ?? null)).toEqual(["active", "paused", null]);
  });

  it("refuses a stale goal id, another agent, a missing session and a missing goal, changing nothing", async () => {
    const { sessions, goals } = setup();
    sessions.ensure(KEY);
    await expect(goals.setStatus(target, "paused")).rejects.toThrow("goal not found");
    await goals.create(target, { objective: "ship" });
    await expect(goals.setStatus({ ...target, goalId: "other" }, "paused")).rejects.toBeInstanceOf(GoalRefusal);
    await expect(goals.setStatus({ ...target, agentId: "ops" }, "paused")).rejects.toThrow('belongs to agent "main", not "ops"');
    await expect(goals.create({ sessionKey: "agent:main:none", agentId: "main" }, { objective: "x" })).rejects.toThrow("session not found");
    expect(goals.read(KEY)?.status).toBe("active");
    expect((await goals.setStatus({ ...target, goalId: "g1" }, "blocked")).status).toBe("blocked");
  });

  it("a reset ends the goal with the transcript", async () => {
    const { sessions, goals } = setup();
    sessions.ensure(KEY);
    await goals.create(target, { objective: "ship" });
    sessions.reset(KEY);
    expect(goals.read(KEY)).toBeNull();
  });

  it("applies a client operation once: a retry replays its answer; a reused id, a future or expired time, another generation are refused", async () => {
    const { sessions, goals, changes } = setup();
    const entry = sessions.ensure(KEY);
    await goals.create(target, { objective: "ship" });
    const op = { operationId: "op1", issuedAtMs: 1_000, goalId: "g1", sessionId: entry.sessionId, action: "pause" as const, note: "lunch" };
    const first = await goals.operate(target, op);
    expect(first).toMatchObject({ operationId: "op1", action: "pause", status: "updated", goal: { status: "paused", lastStatusNote: "lunch" } });
    expect(await goals.operate(target, op)).toEqual({ ...first, replayed: true });
    expect(changes).toHaveLength(2);
    await expect(goals.operate(target, { ...op, note: "dinner" })).rejects.toThrow("goal operation id was already used for a different request");
    await expect(goals.operate(target, { ...op, operationId: "op2", issuedAtMs: 1_000 + 6 * 60_000 })).rejects.toThrow("goal operation time is invalid");
    await expect(goals.operate(target, { ...op, operationId: "op3", issuedAtMs: 1_000 - 24 * 3_600_000 })).rejects.toThrow("goal operation expired");
    await expect(goals.operate(target, { ...op, operationId: "op4", goalId: "g0" })).rejects.toThrow("goal changed or was cleared");
    expect(await goals.operate(target, { operationId: "op5", issuedAtMs: 1_000, goalId: "g1", action: "clear" })).toMatchObject({ status: "cleared", goalId: "g1" });
    expect(goals.read(KEY)).toBeNull();
    sessions.reset(KEY);
    // A reset drops the kept answers with the goal: the old generation's operation is refused, not replayed.
    await expect(goals.operate(target, op)).rejects.toThrow("session changed; refresh before changing its goal");
  });

  it("an operation that starts a turn: admit may refuse it before anything is written; its receipt says started with the run id, and a replay is not admitted again", async () => {
    const { sessions, goals, changes } = setup();
    sessions.ensure(KEY);
    await goals.create(target, { objective: "ship" });
    await goals.setStatus(target, "paused", "lunch");
    const op = { operationId: "run-1", issuedAtMs: 1_000, goalId: "g1", action: "resume" as const };
    const busy = new Error("busy");
    await expect(
      goals.operate(target, op, {
        runId: "run-1",
        admit: () => {
          throw busy;
        },
      }),
    ).rejects.toBe(busy);
    expect(goals.read(KEY)?.status).toBe("paused");
    expect(sessions.peek(KEY)?.goalOperations).toBeUndefined();
    let admitted = 0;
    const starts = { runId: "run-1", admit: () => void admitted++ };
    const first = await goals.operate(target, op, starts);
    expect(first).toMatchObject({ operationId: "run-1", action: "resume", goalId: "g1", status: "started", runId: "run-1", goal: { status: "active" } });
    expect(await goals.operate(target, op, starts)).toEqual({ ...first, replayed: true });
    expect(admitted).toBe(1);
    expect(changes.map(([, g]) => g?.status)).toEqual(["active", "paused", "active"]);
  });
});
