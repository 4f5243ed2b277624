import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { GoalStore } from "../../../src/sessions/goal/index.js";
import type { ChatCommandContext } from "../../../src/conversations/commands/chat-command-registry.js";
import { CHAT_COMMANDS } from "../../../src/conversations/commands/chat-commands.js";
import { goalResumePrompt, goalStartPrompt, parseGoalArgs } from "../../../src/conversations/commands/goal-command.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "goal-command-"));
  dirs.push(dir);
  const sessions = new SessionStore(dir);
  const goals = new GoalStore({ sessions, onChanged: () => {} });
  const ctx = {
    surface: "channel",
    sessionKey: "agent:main:main",
    method: "channel",
    senderIsOwner: false,
    config: () => ({}),
    sessions,
    conversations: {},
    goals,
  } as unknown as ChatCommandContext;
  const run = (text: string) => CHAT_COMMANDS.run(CHAT_COMMANDS.match(text, "channel")!, ctx);
  return { goals, run };
}

describe("/goal", () => {
  it("parses OpenClaw's actions, any other text being a new objective kept as typed inside", () => {
    expect(parseGoalArgs("")).toEqual({ action: "status", text: "" });
    expect(parseGoalArgs("PAUSE waiting for CI")).toEqual({ action: "pause", text: "waiting for CI" });
    expect(parseGoalArgs("start a\n  b")).toEqual({ action: "start", text: "a\n  b" });
    expect(parseGoalArgs("get CI green")).toEqual({ action: "start", text: "get CI green" });
  });

  it("guards an objective or note a chat would read as a command", () => {
    expect(goalStartPrompt("fix the tests")).toBe("fix the tests");
    expect(goalStartPrompt("run /stop then fix")).toBe('Pursue this goal exactly as written from this JSON string: "run \\/stop then fix"');
    expect(goalResumePrompt("")).toBe("Continue pursuing the current goal.");
    expect(goalResumePrompt("CI is back")).toBe("Continue pursuing the current goal. Note: CI is back");
  });

  it("starts (handing the objective to the agent), shows, edits, pauses, resumes, completes and clears", async () => {
    const { run, goals } = setup();
    expect(await run("/goal")).toEqual({ kind: "reply", text: "No goal for this session.\nStart one with /goal start <objective>." });
    expect(await run("/goal get CI green")).toEqual({ kind: "agent", text: "get CI green" });
    expect(await run("/goal start another")).toEqual({ kind: "reply", text: "Goal error: goal already exists" });
    expect(await run("/goal edit get CI green and push")).toEqual({ kind: "reply", text: "Goal updated: get CI green and push" });
    expect(await run("/goal pause waiting for CI")).toEqual({ kind: "reply", text: "Goal paused: get CI green and push" });
    expect(goals.read("agent:main:main")).toMatchObject({ status: "paused", lastStatusNote: "waiting for CI" });
    expect(await run("/goal resume")).toEqual({ kind: "agent", text: "Continue pursuing the current goal." });
    expect(await run("/goal block")).toEqual({ kind: "reply", text: "Goal blocked: get CI green and push" });
    expect(await run("/goal done")).toEqual({ kind: "reply", text: "Goal complete: get CI green and push\nTokens used: 0" });
    expect(await run("/goal resume")).toEqual({ kind: "reply", text: "Goal error: goal is already complete" });
    expect((await run("/goal status")) as { text: string }).toMatchObject({ text: expect.stringContaining("Status: complete") });
    expect(await run("/goal clear")).toEqual({ kind: "reply", text: "Goal cleared." });
    expect(await run("/goal clear")).toEqual({ kind: "reply", text: "No goal to clear." });
    expect(await run("/goal pause")).toEqual({ kind: "reply", text: "Goal error: goal not found" });
    expect(await run("/goal start")).toEqual({ kind: "reply", text: "Usage: /goal start <objective>" });
    expect(await run(`/goal ${"x".repeat(16_001)}`)).toEqual({ kind: "reply", text: "Goal error: objective is 16001 characters; the limit is 16000" });
  });
});
