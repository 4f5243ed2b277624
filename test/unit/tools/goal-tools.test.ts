import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAvailableTools, createCreateGoalTool, createGetGoalTool, createUpdateGoalTool } from "../../../src/agents/tools/index.js";
import { GoalStore } from "../../../src/sessions/goal/index.js";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { errorOf, makeContext, neverAborted, textOf } from "./helpers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "goal-tools-"));
  dirs.push(dir);
  const sessions = new SessionStore(dir);
  sessions.ensure("agent:main:main");
  const goals = new GoalStore({ sessions, onChanged: () => {}, newId: () => "g1" });
  return { sessions, goals, ctx: makeContext(dir, { goals }) };
}

const baseOptions = { memory: false, sessionTools: false, messenger: false, cron: false, gateway: false, viewImage: "off" as const, askUser: false };
const json = (result: { content: { type: string }[] }) => JSON.parse(textOf(result as never)) as Record<string, unknown>;

describe("goal tools", () => {
  it("are offered with the option, in OpenClaw's order before progress_card", () => {
    expect(createAvailableTools(baseOptions).map((t) => t.name)).not.toContain("get_goal");
    expect(
      createAvailableTools({ ...baseOptions, goals: true, progressCard: true })
        .map((t) => t.name)
        .slice(-4),
    ).toEqual(["get_goal", "create_goal", "update_goal", "progress_card"]);
  });

  it("create, read and complete the running session's goal", async () => {
    const { ctx, goals } = setup();
    expect(json(await createGetGoalTool().execute({}, ctx, neverAborted))).toEqual({ status: "missing" });
    const created = json(await createCreateGoalTool().execute({ objective: "  ship\u200B it ", token_budget: null }, ctx, neverAborted));
    expect(created).toMatchObject({ status: "created", goal: { id: "g1", objective: "ship it", status: "active" } });
    expect(json(await createGetGoalTool().execute({}, ctx, neverAborted))).toMatchObject({ status: "found", goal: { objective: "ship it" } });
    const updated = json(await createUpdateGoalTool().execute({ status: "complete", note: "verified" }, ctx, neverAborted));
    expect(updated).toMatchObject({ status: "updated", goal: { status: "complete", lastStatusNote: "verified" } });
    expect(goals.read("agent:main:main")?.status).toBe("complete");
  });

  it("refuse what the model may not do, naming the rule and changing nothing", async () => {
    const { ctx, goals } = setup();
    expect(errorOf(await createCreateGoalTool().execute({ objective: " " }, ctx, neverAborted)).error).toBe("GOAL_INVALID");
    expect(errorOf(await createCreateGoalTool().execute({ objective: "x", token_budget: 0 }, ctx, neverAborted)).message).toContain("token_budget must be a positive integer");
    expect(errorOf(await createUpdateGoalTool().execute({ status: "complete" }, ctx, neverAborted))).toMatchObject({
      error: "GOAL_NOT_CHANGED",
      message: "The goal was not changed: goal not found.",
    });
    await createCreateGoalTool().execute({ objective: "first", token_budget: 100 }, ctx, neverAborted);
    expect(errorOf(await createCreateGoalTool().execute({ objective: "second" }, ctx, neverAborted)).message).toContain("goal already exists");
    // Pausing is the operator's: the schema offers complete and blocked only, and the tool checks it too.
    expect(errorOf(await createUpdateGoalTool().execute({ status: "paused" as never }, ctx, neverAborted)).message).toContain("status must be one of complete, blocked");
    expect(errorOf(await createUpdateGoalTool().execute({ status: "blocked", note: "n".repeat(2001) }, ctx, neverAborted)).error).toBe("GOAL_INVALID");
    expect(goals.read("agent:main:main")).toMatchObject({ objective: "first", status: "active", tokenBudget: 100 });
  });

  it("without a kept session there is no goal to use", async () => {
    const ctx = { ...makeContext("/tmp"), sessionKey: undefined };
    expect(errorOf(await createGetGoalTool().execute({}, ctx, neverAborted)).error).toBe("GOAL_UNAVAILABLE");
  });
});
