import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LOST_TASK_RETENTION_MS, TASK_RETENTION_MS, TaskLedger, type TaskLedgerChange, TaskStore, type TaskStart } from "../../../src/tasks/index.js";

const dirs: string[] = [];
const stores: TaskStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tasks-"));
  dirs.push(dir);
  return dir;
}

async function openStore(): Promise<TaskStore> {
  const store = await TaskStore.open(TaskStore.fileIn(tempDir()));
  stores.push(store);
  return store;
}

const start = (runId: string, extra: Partial<TaskStart> = {}): TaskStart => ({
  runtime: "subagent",
  runId,
  agentId: "main",
  task: `task of ${runId}`,
  requesterSessionKey: "agent:main:main",
  childSessionKey: `agent:main:subagent:${runId}`,
  ...extra,
});

describe("TaskStore", () => {
  it("finds a task by its task id, its run id, or the session it runs in (the newest there)", async () => {
    const store = await openStore();
    store.insert("t1", start("r1", { childSessionKey: "agent:main:subagent:shared" }), 1_000);
    store.insert("t2", start("r2", { childSessionKey: "agent:main:subagent:shared" }), 2_000);
    expect(store.lookup("t1")?.runId).toBe("r1");
    expect(store.lookup("r1")?.taskId).toBe("t1");
    expect(store.lookup("agent:main:subagent:shared")?.taskId).toBe("t2");
    expect(store.lookup("nothing")).toBeUndefined();
  });

  it("lists newest first, filtered by runtime, status, agent and session, up to the limit", async () => {
    const store = await openStore();
    store.insert("a", start("ra"), 1_000);
    store.insert("b", start("rb", { runtime: "cron", requesterSessionKey: undefined, childSessionKey: undefined, sourceId: "job1" }), 2_000);
    store.insert("c", start("rc", { runtime: "acp", agentId: "ops" }), 3_000);
    store.end("ra", { status: "succeeded", summary: "done" }, 4_000);
    expect(store.list({ limit: 10 }).map((t) => t.taskId)).toEqual(["c", "b", "a"]);
    expect(store.list({ limit: 2 }).map((t) => t.taskId)).toEqual(["c", "b"]);
    expect(store.list({ limit: 10, runtime: "cron" }).map((t) => t.taskId)).toEqual(["b"]);
    expect(store.list({ limit: 10, statuses: ["running"] }).map((t) => t.taskId)).toEqual(["c", "b"]);
    expect(store.list({ limit: 10, statuses: ["succeeded"] }).map((t) => t.taskId)).toEqual(["a"]);
    expect(store.list({ limit: 10, agentId: "ops" }).map((t) => t.taskId)).toEqual(["c"]);
    expect(store.list({ limit: 10, sessionKey: "agent:main:main" }).map((t) => t.taskId)).toEqual(["c", "a"]);
    expect(store.list({ limit: 10, sessionKey: "agent:main:subagent:ra" }).map((t) => t.taskId)).toEqual(["a"]);
  });

  it("keeps a record's fields bounded and a run id to one task", async () => {
    const store = await openStore();
    store.insert("t1", start("r1", { task: "x".repeat(10_000), label: "l".repeat(1_000) }), 1_000);
    store.insert("t2", start("r1", { task: "again" }), 2_000);
    const task = store.lookup("r1")!;
    expect(task.taskId).toBe("t1");
    expect(task.task.length).toBe(2_000);
    expect(task.label!.length).toBe(200);
    store.end("r1", { status: "failed", error: "e".repeat(5_000) }, 3_000);
    expect(store.lookup("t1")!.error!.length).toBe(500);
  });

  it("ends a task once: a later end leaves the first", async () => {
    const store = await openStore();
    store.insert("t1", start("r1"), 1_000);
    expect(store.end("r1", { status: "cancelled", error: "cancelled by an operator" }, 2_000)).toBe(true);
    expect(store.end("r1", { status: "failed", error: "the turn ended as aborted" }, 3_000)).toBe(false);
    const task = store.lookup("t1")!;
    expect(task).toMatchObject({ status: "cancelled", endedAt: 2_000, startedAt: 1_000, cleanupAfter: 2_000 + TASK_RETENTION_MS, error: "cancelled by an operator" });
  });

  it("marks unfinished tasks lost, kept 24 hours", async () => {
    const store = await openStore();
    store.insert("t1", start("r1"), 1_000);
    store.insert("t2", start("r2", { status: "queued" }), 1_000);
    store.insert("t3", start("r3"), 1_000);
    store.end("r3", { status: "succeeded" }, 2_000);
    expect(store.markUnfinishedLost(5_000, "gone")).toBe(2);
    expect(store.lookup("t1")).toMatchObject({ status: "lost", endedAt: 5_000, cleanupAfter: 5_000 + LOST_TASK_RETENTION_MS, error: "gone" });
    expect(store.lookup("t2")?.status).toBe("lost");
    expect(store.lookup("t3")?.status).toBe("succeeded");
  });

  it("prunes ended tasks past retention (lost after 24 hours, others after 7 days) and the oldest beyond the cap, never unfinished ones", async () => {
    const store = await openStore();
    store.insert("old", start("r-old"), 0);
    store.end("r-old", { status: "succeeded" }, 1_000);
    store.insert("lost", start("r-lost"), 0);
    store.end("r-lost", { status: "lost" }, 1_000);
    store.insert("running", start("r-running"), 0);
    const afterADay = 1_000 + LOST_TASK_RETENTION_MS;
    expect(store.prune(afterADay)).toEqual(["lost"]);
    expect(store.lookup("lost")).toBeUndefined();
    expect(store.lookup("old")).toBeDefined();
    expect(store.prune(1_000 + TASK_RETENTION_MS)).toEqual(["old"]);
    expect(store.lookup("old")).toBeUndefined();
    for (let i = 0; i < 5; i++) {
      store.insert(`t${i}`, start(`r${i}`), 10_000 + i);
      store.end(`r${i}`, { status: "succeeded" }, 20_000 + i);
    }
    expect(store.prune(30_000, 3).sort()).toEqual(["t0", "t1"]);
    expect(store.list({ limit: 10 }).map((t) => t.taskId)).toEqual(["t4", "t3", "t2", "running"]);
  });
});

describe("TaskLedger", () => {
  const logger = { warn: () => {} };

  it("creates no file until a task is recorded, then keeps producers' writes in order", async () => {
    const stateDir = tempDir();
    const ledger = new TaskLedger({ stateDir, logger });
    await ledger.start();
    expect(fs.existsSync(TaskStore.fileIn(stateDir))).toBe(false);
    expect(await ledger.list({ limit: 10 })).toEqual([]);
    ledger.started(start("r1"));
    ledger.ended("r1", { status: "succeeded", summary: "ok" });
    expect(await ledger.lookup("r1")).toMatchObject({ status: "succeeded", terminalSummary: "ok" });
    await ledger.stop();
  });

  it("records nothing once the gateway stops: a run its drain aborts stays running, to be lost", async () => {
    const ledger = new TaskLedger({ stateDir: tempDir(), logger });
    ledger.started(start("r1"));
    ledger.stopRecording();
    ledger.ended("r1", { status: "cancelled" });
    ledger.started(start("r2"));
    expect(await ledger.lookup("r1")).toMatchObject({ status: "running" });
    expect(await ledger.lookup("r2")).toBeUndefined();
    await ledger.stop();
  });

  it("marks tasks a stopped gateway left running as lost at the next start", async () => {
    const stateDir = tempDir();
    const first = new TaskLedger({ stateDir, logger });
    first.started(start("r1"));
    expect((await first.lookup("r1"))?.status).toBe("running");
    await first.stop();
    const warnings: unknown[] = [];
    const second = new TaskLedger({ stateDir, logger: { warn: (o: unknown) => warnings.push(o) } });
    await second.start();
    expect(await second.lookup("r1")).toMatchObject({ status: "lost" });
    expect(warnings).toEqual([{ lost: 1 }]);
    await second.stop();
  });

  it("tells its observer each change after the write: a start and an end once each, lost tasks as one restored, pruned ones by id", async () => {
    const stateDir = tempDir();
    let now = 1_000;
    const changes: TaskLedgerChange[] = [];
    const first = new TaskLedger({ stateDir, logger, now: () => now, onChange: (change) => changes.push(change) });
    first.started(start("r1"));
    first.started(start("r1"));
    first.ended("r1", { status: "succeeded", summary: "ok" });
    expect(await first.end("r1", { status: "cancelled" })).toBe(false);
    first.started(start("r2"));
    expect(await first.lookup("r2")).toBeDefined();
    expect(changes.map((c) => (c.kind === "upserted" ? `${c.task.runId}:${c.task.status}` : c.kind))).toEqual(["r1:running", "r1:succeeded", "r2:running"]);
    await first.stop();

    changes.length = 0;
    now += TASK_RETENTION_MS;
    const throwing = new TaskLedger({
      stateDir,
      logger,
      now: () => now,
      onChange: (change) => {
        changes.push(change);
        throw new Error("a client went away");
      },
    });
    await throwing.start();
    expect(changes).toEqual([{ kind: "restored" }, { kind: "deleted", taskId: expect.any(String) }]);
    expect(await throwing.lookup("r2")).toMatchObject({ status: "lost" });
    await throwing.stop();
  });
});
