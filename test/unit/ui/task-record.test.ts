import { describe, expect, it } from "vitest";
import { statusesFor, taskDuration, taskMatches, type TaskSummary, upsertTask } from "../../../ui/src/views/task-record.js";

const task = (taskId: string, createdAt: number, extra: Partial<TaskSummary> = {}): TaskSummary => ({
  taskId,
  runtime: "subagent",
  status: "running",
  title: taskId,
  agentId: "main",
  runId: `run-${taskId}`,
  createdAt,
  updatedAt: createdAt,
  startedAt: createdAt,
  ...extra,
});

describe("Control UI task rows", () => {
  it("a task event puts the task in its place, newest created first, or takes it out when the filters no longer select it", () => {
    const rows = [task("c", 3_000), task("a", 1_000)];
    expect(upsertTask(rows, task("b", 2_000), true).map((t) => t.taskId)).toEqual(["c", "b", "a"]);
    expect(upsertTask(rows, task("d", 4_000), true).map((t) => t.taskId)).toEqual(["d", "c", "a"]);
    expect(upsertTask(rows, task("z", 0), true).map((t) => t.taskId)).toEqual(["c", "a", "z"]);
    const ended = task("c", 3_000, { status: "completed", endedAt: 5_000 });
    expect(upsertTask(rows, ended, true)[0]).toBe(ended);
    expect(upsertTask(rows, ended, taskMatches(ended, "active", "")).map((t) => t.taskId)).toEqual(["a"]);
  });

  it("a copy older than the row shown (a late event, one replayed over a newer list) changes nothing; an ended row never runs again", () => {
    const ended = task("c", 3_000, { status: "cancelled", updatedAt: 5_000, endedAt: 5_000 });
    expect(upsertTask([ended], task("c", 3_000), true)).toEqual([ended]);
    expect(upsertTask([ended], task("c", 3_000, { updatedAt: 5_000 }), true)).toEqual([ended]);
    const later = task("c", 3_000, { status: "failed", updatedAt: 6_000, endedAt: 6_000 });
    expect(upsertTask([ended], later, true)).toEqual([later]);
  });

  it("the status filter asks tasks.list for unfinished or ended statuses; the runtime filter must match too", () => {
    expect(statusesFor("active")).toEqual(["queued", "running"]);
    expect(statusesFor("finished")).toEqual(["completed", "failed", "cancelled", "timed_out"]);
    expect(statusesFor("all")).toBeUndefined();
    expect(taskMatches(task("a", 0), "finished", "")).toBe(false);
    expect(taskMatches(task("a", 0), "all", "cron")).toBe(false);
    expect(taskMatches(task("a", 0), "active", "subagent")).toBe(true);
  });

  it("duration is start to end, or so far for a running task", () => {
    expect(taskDuration(task("a", 0, { status: "completed", endedAt: 75_000 }), 999_000)).toBe("1m 15s");
    expect(taskDuration(task("a", 0), 9_400)).toBe("9s so far");
    expect(taskDuration(task("a", 0, { status: "failed", endedAt: 2 * 3600_000 + 60_000 }), 0)).toBe("2h 1m");
  });
});
