import { describe, expect, it } from "vitest";
import {
  accountedGoal,
  activeGoalContextLine,
  checkGoalNote,
  checkGoalObjective,
  checkGoalTokenBudget,
  createdGoal,
  formatGoalStatus,
  goalAfterTurn,
  goalWithObjective,
  goalWithStatus,
  GoalTransitionError,
  type SessionGoal,
} from "../../../src/sessions/goal/index.js";

const goal = (fields: Partial<SessionGoal> = {}): SessionGoal => ({ ...createdGoal(undefined, { objective: "ship it" }, 100, 1, "g1"), ...fields });

describe("session goal transitions", () => {
  it("creates an active goal whose budget window starts at the session's tokens; a second one is refused", () => {
    expect(createdGoal(undefined, { objective: "ship it", tokenBudget: 50 }, 100, 1, "g1")).toEqual({
      schemaVersion: 1,
      id: "g1",
      objective: "ship it",
      status: "active",
      createdAt: 1,
      updatedAt: 1,
      tokenStart: 100,
      tokensUsed: 0,
      tokenBudget: 50,
    });
    expect(() => createdGoal(goal(), { objective: "other" }, 0, 2, "g2")).toThrow(new GoalTransitionError("goal already exists"));
  });

  it("counts tokens since the window began and limits an active goal at its budget", () => {
    const g = goal({ tokenBudget: 50 });
    expect(accountedGoal(g, 100, 5)).toBe(g);
    expect(accountedGoal(g, 130, 5)).toMatchObject({ tokensUsed: 30, status: "active" });
    expect(accountedGoal(g, 150, 5)).toMatchObject({ tokensUsed: 50, status: "budget_limited", budgetLimitedAt: 5 });
    // A paused goal is counted but not limited.
    expect(accountedGoal({ ...g, status: "paused" }, 200, 5)).toMatchObject({ tokensUsed: 100, status: "paused" });
  });

  it("resuming a budget-limited goal starts a fresh window; complete is terminal but repeatable", () => {
    const limited = accountedGoal(goal({ tokenBudget: 50 }), 160, 5);
    const resumed = goalWithStatus(limited, "active", "more room", 160, 6);
    expect(resumed).toMatchObject({ status: "active", tokenStart: 160, tokensUsed: 0, lastStatusNote: "more room" });
    expect(resumed.budgetLimitedAt).toBeUndefined();
    const done = goalWithStatus(resumed, "complete", undefined, 170, 7);
    expect(done).toMatchObject({ status: "complete", completedAt: 7 });
    expect(goalWithStatus(done, "complete", "again", 170, 9)).toMatchObject({ completedAt: 7, lastStatusNote: "again" });
    expect(() => goalWithStatus(done, "active", undefined, 170, 9)).toThrow("goal is already complete");
    expect(() => goalWithObjective(done, "new", 170, 9)).toThrow("goal is already complete");
    expect(() => goalWithStatus(undefined, "paused", undefined, 0, 1)).toThrow("goal not found");
  });

  it("resuming a usage-limited goal (one kept from elsewhere: nothing here sets it) makes it active with a fresh window", () => {
    const limited = goal({ status: "usage_limited", usageLimitedAt: 4, tokensUsed: 30 });
    const resumed = goalWithStatus(limited, "active", undefined, 180, 6);
    expect(resumed).toMatchObject({ status: "active", tokenStart: 180, tokensUsed: 0 });
    expect(resumed.usageLimitedAt).toBeUndefined();
  });

  it("editing keeps status and tokens", () => {
    expect(goalWithObjective(goal({ status: "paused" }), "reworded", 120, 3)).toMatchObject({ objective: "reworded", status: "paused", tokensUsed: 20 });
  });

  it("a failed turn pauses an active goal with the error as its note; a good one only counts", () => {
    expect(goalAfterTurn(goal(), 140, 4, "model timed out")).toMatchObject({ status: "paused", pausedAt: 4, lastStatusNote: "model timed out", tokensUsed: 40 });
    expect(goalAfterTurn(goal(), 140, 4, undefined)).toMatchObject({ status: "active", tokensUsed: 40 });
    expect(goalAfterTurn(goal({ status: "blocked" }), 100, 4, "boom").status).toBe("blocked");
  });
});

describe("goal input", () => {
  it("strips invisible and bidi characters, trims the ends and keeps inner spacing", () => {
    expect(checkGoalObjective("  a\u200B\u202Eb\n  c  ")).toEqual({ ok: true, text: "ab\n  c" });
  });

  it("refuses empty, oversized and non-string objectives naming the rule", () => {
    expect(checkGoalObjective(" \u200B ")).toEqual({ ok: false, rule: "objective required (it has no visible text)" });
    expect(checkGoalObjective("x".repeat(16_001))).toEqual({ ok: false, rule: "objective is 16001 characters; the limit is 16000" });
    expect(checkGoalObjective("x".repeat(16_000)).ok).toBe(true);
    expect(checkGoalObjective(5)).toEqual({ ok: false, rule: "objective must be a string" });
    expect(checkGoalNote("n".repeat(2_001))).toEqual({ ok: false, rule: "note is 2001 characters; the limit is 2000" });
    expect(checkGoalNote(undefined)).toEqual({ ok: true, text: "" });
  });

  it("takes a positive whole token budget, or none", () => {
    expect(checkGoalTokenBudget(null)).toEqual({ ok: true, budget: undefined });
    expect(checkGoalTokenBudget(500)).toEqual({ ok: true, budget: 500 });
    for (const bad of [0, -1, 1.5, "10"]) expect(checkGoalTokenBudget(bad)).toEqual({ ok: false, rule: "token_budget must be a positive integer" });
  });
});

describe("goal text", () => {
  it("gives the per-turn line for an active goal only, on one line and cut at 200 characters", () => {
    expect(activeGoalContextLine(goal({ objective: "fix\n\nCI" }))).toMatch(/^Active goal: fix CI — /);
    expect(activeGoalContextLine(goal({ status: "paused" }))).toBeUndefined();
    expect(activeGoalContextLine(undefined)).toBeUndefined();
    const line = activeGoalContextLine(goal({ objective: "y".repeat(500) }))!;
    expect(line).toContain(`${"y".repeat(199)}… —`);
  });

  it("summarises the goal for /goal", () => {
    expect(formatGoalStatus(null)).toBe("No goal for this session.\nStart one with /goal start <objective>.");
    expect(formatGoalStatus(goal({ tokensUsed: 12_000, tokenBudget: 50_000, lastStatusNote: "waiting" }))).toBe(
      [
        "Goal",
        "Status: active",
        "Objective: ship it",
        "Tokens used: 12k",
        "Token budget: 12k/50k",
        "Note: waiting",
        "",
        "Commands: /goal edit <objective>, /goal pause, /goal complete, /goal clear",
      ].join("\n"),
    );
  });
});
