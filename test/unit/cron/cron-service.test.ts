import { afterEach, describe, expect, it } from "vitest";
import { CronStore, MAX_RUNS_PER_JOB, RUN_RETENTION_MS } from "../../../src/cron/cron-store.js";
import { BACKOFF_MS } from "../../../src/cron/failure-policy.js";
import type { CronJobInput } from "../../../src/cron/job-input.js";
import { cronHarness, settle, type Harness } from "./cron-harness.js";

const open: Harness["service"][] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.stop();
});

async function harness(options: Parameters<typeof cronHarness>[0] = {}): Promise<Harness> {
  const h = await cronHarness(options);
  open.push(h.service);
  return h;
}

function isolatedJob(overrides: Partial<CronJobInput> = {}): CronJobInput {
  return { name: "report", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "write the report" }, ...overrides };
}

describe("cron service", () => {
  it("adds a job, lists it with its next run and keeps it across a restart", async () => {
    const h = await harness();
    const job = await h.service.add(isolatedJob());
    expect(job.state.nextRunAtMs).toBe(h.clock.now() + 3_600_000);
    expect(h.service.list().jobs.map((j) => j.id)).toEqual([job.id]);
    expect(h.events).toContainEqual({ action: "added", jobId: job.id });
    await h.service.stop();
    const again = await h.restart();
    open.push(again);
    expect(again.get(job.id)?.name).toBe("report");
    expect(again.get(job.id)?.state.nextRunAtMs).toBe(job.state.nextRunAtMs);
  });

  it("refuses bad input with a message and stores nothing", async () => {
    const h = await harness();
    await expect(h.service.add(isolatedJob({ schedule: { kind: "every", every: 0 } }))).rejects.toThrow(/too short/);
    await expect(h.service.add(isolatedJob({ sessionTarget: "main" }))).rejects.toThrow(/takes a systemEvent payload/);
    await expect(h.service.add(isolatedJob({ schedule: { kind: "cron", expr: "0 9 30 2 *" } }))).rejects.toThrow(/never fires/);
    await expect(h.service.add(isolatedJob({ delivery: { mode: "webhook", to: "ftp://example.com/x" } }))).rejects.toThrow(/only http and https/);
    expect(h.service.list().total).toBe(0);
    expect(CronStore.exists(h.stateDir)).toBe(false);
  });

  it("runs an isolated job in a fresh cron:<id> session and announces its reply once", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "the report" });
    const job = await h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "telegram", to: "42" } }));
    h.clock.advance(3_600_000);
    await settle(h.service);
    expect(h.conversations.resets).toEqual([`agent:main:cron:${job.id}`]);
    expect(h.conversations.submitted[0]).toMatchObject({ sessionKey: `agent:main:cron:${job.id}`, senderIsOwner: false, message: "write the report" });
    expect(h.channels.sent).toEqual([{ route: { channel: "telegram", to: "42" }, text: "the report", key: expect.stringMatching(/^cron:/) }]);
    const [run] = h.service.runs({ jobId: job.id }).entries;
    expect(run).toMatchObject({ status: "ok", deliveryStatus: "delivered", summary: "the report" });
    expect(run!.pendingDelivery).toBeUndefined();
    expect(h.events.map((e) => e.action)).toEqual(["added", "started", "finished"]);
  });

  it("a reply of HEARTBEAT_OK is nothing to deliver", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    const job = await h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "telegram", to: "42" } }));
    h.clock.advance(3_600_000);
    await settle(h.service);
    expect(h.channels.sent).toEqual([]);
    expect(h.service.get(job.id)?.state.lastDeliveryStatus).toBe("not-delivered");
  });

  it("refuses a job announcing to a channel that is not configured, naming delivery.channel", async () => {
    const h = await harness();
    await expect(h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "discord", to: "1" } }))).rejects.toThrow(
      /^delivery\.channel: channel discord is not configured \(add channels.discord\)/,
    );
    expect(h.service.list().jobs).toEqual([]);
  });

  it("fails a job whose channel left the config before any model time, and says how to fix it", async () => {
    const h = await harness();
    h.channels.configured.add("discord");
    const job = await h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "discord", to: "1" } }));
    h.channels.configured.delete("discord");
    h.clock.advance(3_600_000);
    await settle(h.service);
    expect(h.conversations.submitted).toEqual([]);
    const state = h.service.get(job.id)!.state;
    expect(state.lastStatus).toBe("error");
    expect(state.lastError).toMatch(/channel discord is not configured \(add channels.discord\)/);
  });

  it("a missed run while the gateway was down runs once at start, not once per slot", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "" });
    const job = await h.service.add(isolatedJob());
    await h.service.stop();
    h.clock.setTo(h.clock.now() + 5 * 3_600_000 + 60_000);
    const again = await h.restart();
    open.push(again);
    await settle(again);
    expect(h.conversations.submitted).toHaveLength(1);
    expect(again.get(job.id)!.state.nextRunAtMs).toBeGreaterThan(h.clock.now());
  });

  it("a clock that jumps forward a day runs an hourly job once, then keeps its hourly slots", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "" });
    const job = await h.service.add(isolatedJob());
    h.clock.jump(24 * 3_600_000 + 1);
    await settle(h.service);
    expect(h.conversations.submitted).toHaveLength(1);
    h.clock.advance(3_600_000);
    await settle(h.service);
    expect(h.conversations.submitted).toHaveLength(2);
    expect(h.service.runs({ jobId: job.id }).total).toBe(2);
  });

  it("a run longer than its interval never overlaps: the slot is skipped and the skip is recorded", async () => {
    const h = await harness();
    const job = await h.service.add(isolatedJob({ schedule: { kind: "every", every: "1m" } }));
    h.clock.advance(60_000);
    await new Promise((r) => setImmediate(r));
    expect(h.conversations.active()).toHaveLength(1);
    h.clock.advance(60_000);
    h.clock.advance(60_000);
    expect(h.conversations.submitted).toHaveLength(1);
    const skipped = h.service.runs({ jobId: job.id, statuses: ["skipped"] });
    expect(skipped.total).toBe(2);
    expect(skipped.entries[0]!.error).toMatch(/still running; this slot was skipped so runs never overlap/);
    h.conversations.active()[0]!.finish("ok", "");
    await settle(h.service);
    expect(h.service.runs({ jobId: job.id, statuses: ["ok"] }).total).toBe(1);
  });

  it("1,000 jobs due in the same second all run once, never more at a time than the cap", async () => {
    const h = await harness({ cron: { maxConcurrentRuns: 4 } });
    let running = 0;
    let peak = 0;
    h.conversations.autoReply = () => undefined;
    const at = new Date(h.clock.now() + 1_000).toISOString();
    for (let i = 0; i < 1_000; i++)
      await h.service.add({ name: `j${i}`, schedule: { kind: "at", at }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: `m${i}` } });
    h.clock.advance(1_000);
    while (h.conversations.active().length > 0) {
      running = h.conversations.active().length;
      peak = Math.max(peak, running);
      for (const run of h.conversations.active()) run.finish("ok", "");
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    }
    await settle(h.service);
    const messages = h.conversations.submitted.map((s) => s.message);
    expect(messages).toHaveLength(1_000);
    expect(new Set(messages).size).toBe(1_000);
    expect(peak).toBe(4);
    expect(h.service.runs({ limit: 200 }).total).toBe(1_000);
  });

  it("backs off 30 s, 60 s, 5 min… after failures, alerts after 2 and disables after 10", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "error", text: "model down" });
    const job = await h.service.add(isolatedJob({ schedule: { kind: "every", every: "10s" } }));
    const gaps: number[] = [];
    for (let i = 0; i < 10; i++) {
      const next = h.service.get(job.id)!.state.nextRunAtMs!;
      const before = h.clock.now();
      h.clock.setTo(next);
      await settle(h.service);
      if (i > 0) gaps.push(next - before);
    }
    expect(gaps.slice(0, 5)).toEqual([BACKOFF_MS[0], BACKOFF_MS[1], BACKOFF_MS[2], BACKOFF_MS[3], BACKOFF_MS[4]]);
    const state = h.service.get(job.id)!;
    expect(state.enabled).toBe(false);
    expect(state.state.disabledReason).toBe("10 consecutive failures");
    expect(h.events.filter((e) => e.action === "alert").length).toBeGreaterThanOrEqual(1);
    expect(h.events.find((e) => e.action === "alert")).toMatchObject({ consecutiveErrors: 2 });
  });

  it("a run cut short by a kill is recorded once as interrupted after the restart, and the job goes on", async () => {
    const h = await harness();
    const job = await h.service.add(isolatedJob());
    h.clock.advance(3_600_000);
    await new Promise((r) => setImmediate(r));
    expect(h.conversations.active()).toHaveLength(1);
    // No stop(): the process died with the run marked running in the store.
    const second = await h.restart();
    open.push(second);
    const third = await h.restart();
    open.push(third);
    const interrupted = third.runs({ jobId: job.id, statuses: ["interrupted"] });
    expect(interrupted.total).toBe(1);
    expect(interrupted.entries[0]!.error).toMatch(/gateway stopped during this run/);
    const state = third.get(job.id)!;
    expect(state.enabled).toBe(true);
    expect(state.state.runningAtMs).toBeUndefined();
    expect(state.state.nextRunAtMs).toBeGreaterThan(h.clock.now());
  });

  it("a reply recorded before a crash but not delivered is delivered once after the restart", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "owed" });
    h.channels.failNext = 1;
    const job = await h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "telegram", to: "42" } }));
    h.clock.advance(3_600_000);
    await settle(h.service);
    expect(h.service.get(job.id)!.state.lastDeliveryStatus).toBe("not-delivered");
    expect(h.channels.sent).toEqual([]);
    // The failed attempt settled the row; a crash between the record and the send leaves it owed instead.
    const store = await CronStore.open(h.stateDir);
    const owedRun = { ...h.service.runs({ jobId: job.id }).entries[0]!, runId: "owed-run", pendingDelivery: "owed", deliveryStatus: "unknown" as const };
    store.recordRun(owedRun, h.service.get(job.id));
    store.close();
    const again = await h.restart();
    open.push(again);
    await settle(again);
    const third = await h.restart();
    open.push(third);
    await settle(third);
    expect(h.channels.sent.map((s) => s.key)).toEqual(["cron:owed-run"]);
    expect(third.runs({ runId: "owed-run" }).entries[0]).toMatchObject({ deliveryStatus: "delivered" });
  });

  it("keeps 7 days and at most 2,000 runs per job", async () => {
    const h = await harness();
    const job = await h.service.add(isolatedJob());
    const store = await CronStore.open(h.stateDir);
    const base = { jobId: job.id, jobName: job.name, action: "finished" as const, status: "ok" as const, runAtMs: 0, durationMs: 1, deliveryStatus: "not-requested" as const };
    store.recordRun({ ...base, runId: "old", ts: h.clock.now() - RUN_RETENTION_MS - 1 }, h.service.get(job.id));
    for (let i = 0; i < MAX_RUNS_PER_JOB + 5; i++) store.recordRun({ ...base, runId: `r${i}`, ts: h.clock.now() - i }, h.service.get(job.id));
    expect(store.prune(h.clock.now(), [job.id])).toBe(6);
    const left = store.listRuns({ jobId: job.id, limit: 1, offset: 0, sortDir: "desc" });
    expect(left.total).toBe(MAX_RUNS_PER_JOB);
    expect(left.entries[0]!.runId).toBe("r0");
    store.close();
  });

  it("is off with OPENCLAW_SKIP_CRON=1 and with cron.enabled false", async () => {
    const skipped = await harness({ env: { OPENCLAW_SKIP_CRON: "1" } });
    await expect(skipped.service.add(isolatedJob())).rejects.toThrow(/cron is disabled on this gateway/);
    const off = await harness({ cron: { enabled: false } });
    expect(off.service.status().enabled).toBe(false);
    await expect(off.service.add(isolatedJob())).rejects.toThrow(/cron.enabled: false/);
  });

  it("a one-shot job runs once and is removed after its successful run, as OpenClaw's default", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "" });
    const job = await h.service.add(isolatedJob({ schedule: { kind: "at", at: "20m" } }));
    h.clock.advance(20 * 60_000);
    await settle(h.service);
    expect(h.service.get(job.id)).toBeUndefined();
    h.clock.advance(24 * 3_600_000);
    await settle(h.service);
    expect(h.conversations.submitted).toHaveLength(1);
  });

  it("a one-shot job added with deleteAfterRun: false is kept after its run", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "ok", text: "" });
    const job = await h.service.add(isolatedJob({ schedule: { kind: "at", at: "20m" }, deleteAfterRun: false }));
    h.clock.advance(20 * 60_000);
    await settle(h.service);
    expect(h.service.get(job.id)).toMatchObject({ deleteAfterRun: false });
    expect(h.conversations.submitted).toHaveLength(1);
  });

  it("cron.run starts a job now and refuses while it already runs", async () => {
    const h = await harness();
    const job = await h.service.add(isolatedJob());
    const first = h.service.run(job.id);
    expect(first.ran).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(h.service.run(job.id)).toEqual({ ran: false, reason: "already running" });
    expect(h.service.run(job.id, "due")).toEqual({ ran: false, reason: "not due" });
    h.conversations.active()[0]!.finish("ok", "");
    await settle(h.service);
    expect(h.service.runs({ jobId: job.id }).entries[0]!.runId).toBe((first as { runId: string }).runId);
  });

  it("a job edited while it runs still records that run and delivers its reply", async () => {
    const h = await harness();
    const job = await h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "telegram", to: "42" } }));
    h.clock.advance(3_600_000);
    await new Promise((r) => setImmediate(r));
    expect(h.conversations.active()).toHaveLength(1);
    await h.service.update(job.id, { description: "edited during the run" });
    h.conversations.active()[0]!.finish("ok", "the report");
    await settle(h.service);
    expect(h.channels.sent.map((s) => s.text)).toEqual(["the report"]);
    const [run] = h.service.runs({ jobId: job.id }).entries;
    expect(run).toMatchObject({ status: "ok", deliveryStatus: "delivered" });
    const after = h.service.get(job.id)!;
    expect(after.description).toBe("edited during the run");
    expect(after.state).toMatchObject({ lastStatus: "ok", nextRunAtMs: h.clock.now() + 3_600_000 });
    expect(after.state.runningAtMs).toBeUndefined();
  });

  it("a failing job edited while it runs still counts the failure and alerts", async () => {
    const h = await harness();
    h.conversations.autoReply = () => ({ status: "error", text: "model down" });
    const job = await h.service.add(isolatedJob({ delivery: { mode: "announce", channel: "telegram", to: "42" } }));
    h.clock.advance(3_600_000);
    await settle(h.service);
    h.conversations.autoReply = undefined;
    h.service.run(job.id);
    await new Promise((r) => setImmediate(r));
    expect(h.conversations.active()).toHaveLength(1);
    await h.service.update(job.id, { name: "report (renamed)" });
    h.conversations.active()[0]!.finish("error", "model down");
    await settle(h.service);
    expect(h.service.get(job.id)!.state.consecutiveErrors).toBe(2);
    expect(h.events.filter((e) => e.action === "alert")).toHaveLength(1);
    expect(h.channels.sent.map((s) => s.text)).toEqual([expect.stringContaining('"report (renamed)" failed 2 times')]);
  });
});

describe("cron reports to a session", () => {
  it("an isolated run's result goes into the main session once as a task_completion with source cron", async () => {
    const h = await cronHarness();
    open.push(h.service);
    h.conversations.autoReply = (input) => (input.sessionKey?.includes(":cron:") ? { status: "ok", text: "3 new issues" } : undefined);
    const job = await h.service.add(isolatedJob({ delivery: { mode: "session", to: "main" } }));
    h.clock.advance(3_600_000);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    const report = () => h.conversations.submitted.filter((s) => s.sessionKey === "agent:main:main");
    for (let i = 0; i < 20 && report().length === 0; i++) await new Promise((r) => setImmediate(r));
    expect(report()).toHaveLength(1);
    const [submitted] = report();
    expect(submitted!.idempotencyKey).toMatch(/^cron-report:/);
    expect(submitted!.message).toContain("source: cron");
    expect(submitted!.message).toContain("3 new issues");
    expect(submitted!.transcriptFields).toMatchObject({
      internalEvents: [{ type: "task_completion", source: "cron", announceType: "cron job", taskLabel: "report", status: "ok" }],
    });
    h.conversations.active()[0]!.finish("ok", "You have 3 new issues.");
    await settle(h.service);
    expect(h.service.runs({ jobId: job.id }).entries[0]).toMatchObject({ deliveryStatus: "delivered" });
    await expect(h.service.add(isolatedJob({ sessionTarget: "session:x", delivery: { mode: "session" } }))).rejects.toThrow(/use sessionTarget "isolated"/);
  });
});
