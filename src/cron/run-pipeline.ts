import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { CronClock } from "./clock.js";
import type { CronStore } from "./cron-store.js";
import { deliverRun } from "./deliver-run.js";
import { failureAlertKey, failureAlertRoute, failureAlertText } from "./failure-alert.js";
import { onFailure } from "./failure-policy.js";
import type { CronChannelPort, CronConversations, CronEvent } from "./ports.js";
import { runJob } from "./run-job.js";
import { nextRunAt } from "./schedule.js";
import type { CronDeliveryStatus, CronJob, CronRunEntry, CronRunOutcome } from "./types.js";
import { webhookPolicy } from "./webhook-policy.js";
import type { TaskRecorder } from "../tasks/index.js";

export interface RunPipelineDeps {
  clock: CronClock;
  logger: Logger;
  emit: (event: CronEvent) => void;
  conversations: CronConversations;
  channels: () => CronChannelPort | undefined;
  config: () => OpenClawConfig;
  queueForHeartbeat?: (agentId: string, sessionKey: string, text: string, key: string) => boolean;
  store: () => CronStore;
  job: (id: string) => CronJob | undefined;
  forget: (id: string) => void;
  stopping: () => boolean;
  /** The background task ledger: every run is a `cron` task. */
  tasks?: TaskRecorder;
}

const SUMMARY_CHARS = 200;
const INTERRUPTED = "the gateway stopped during this run (crash, kill or shutdown); the run did not finish";

/**
 * One run of a job from start to record: mark it running (persisted, so a crash is noticed at
 * the next start), run the turn, apply the failure policy, write the run row and the job's new
 * state in one transaction, then deliver the reply and record how that went.
 */
export class CronRunPipeline {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: RunPipelineDeps) {}

  run(job: CronJob, runId: string = randomUUID()): Promise<void> {
    const work = this.execute(job, runId).catch((err) => this.deps.logger.error({ jobId: job.id, runId, err: (err as Error).message }, "cron run could not be recorded"));
    return this.track(work);
  }

  /** Resolves when runs and deliveries in progress have ended. */
  async whenSettled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** A due slot found the job's previous run still going: record the skip and plan the slot after it. */
  skip(job: CronJob, now: number): void {
    const runningSince = job.state.runningAtMs;
    const entry: CronRunEntry = {
      runId: randomUUID(),
      jobId: job.id,
      jobName: job.name,
      ts: now,
      action: "finished",
      status: "skipped",
      error: `the previous run (started ${runningSince ? new Date(runningSince).toISOString() : "earlier"}) is still running; this slot was skipped so runs never overlap`,
      runAtMs: job.state.nextRunAtMs ?? now,
      durationMs: 0,
      deliveryStatus: "not-requested",
    };
    const next = nextRunAt(job.schedule, now, job.createdAtMs);
    if (next === undefined) delete job.state.nextRunAtMs;
    else job.state.nextRunAtMs = next;
    if (next !== undefined) entry.nextRunAtMs = next;
    this.deps.store().recordRun(entry, job);
    this.deps.logger.warn({ jobId: job.id, name: job.name }, "cron slot skipped: the previous run is still running");
    this.deps.emit({
      action: "finished",
      jobId: job.id,
      runId: entry.runId,
      status: "skipped",
      error: entry.error,
      durationMs: 0,
      deliveryStatus: entry.deliveryStatus,
      ...(next !== undefined ? { nextRunAtMs: next } : {}),
    });
  }

  /** Runs the last process left marked running: each is recorded once as interrupted and the job goes on. */
  recoverInterrupted(jobs: readonly CronJob[]): void {
    const now = this.deps.clock.now();
    for (const job of jobs) {
      const startedAt = job.state.runningAtMs;
      if (startedAt === undefined) continue;
      const runId = job.state.runningRunId ?? `interrupted-${job.id}-${startedAt}`;
      delete job.state.runningAtMs;
      delete job.state.runningRunId;
      job.state.lastRunAtMs = startedAt;
      job.state.lastStatus = "interrupted";
      job.state.lastError = INTERRUPTED;
      if (job.schedule.kind === "at") {
        job.enabled = false;
        job.state.disabledReason = "its one run was interrupted by a restart; start it again with cron run";
        delete job.state.nextRunAtMs;
      } else {
        const next = nextRunAt(job.schedule, now, job.createdAtMs);
        if (next !== undefined) job.state.nextRunAtMs = next;
      }
      const entry: CronRunEntry = {
        runId,
        jobId: job.id,
        jobName: job.name,
        ts: now,
        action: "finished",
        status: "interrupted",
        error: INTERRUPTED,
        runAtMs: startedAt,
        durationMs: Math.max(0, now - startedAt),
        deliveryStatus: job.delivery.mode === "none" ? "not-requested" : "not-delivered",
        ...(job.state.nextRunAtMs !== undefined ? { nextRunAtMs: job.state.nextRunAtMs } : {}),
      };
      this.deps.store().recordRun(entry, job);
      this.deps.logger.warn({ jobId: job.id, name: job.name, runId }, "cron run interrupted by the last shutdown was recorded");
    }
  }

  /** Replies recorded before a crash but not delivered go out now (the ledger and the webhook key keep it to once). */
  resumeOwedDeliveries(): void {
    for (const entry of this.deps.store().owedDeliveries()) {
      const job = this.deps.job(entry.jobId);
      if (!job || entry.pendingDelivery === undefined) {
        this.deps.store().settleDelivery(entry.runId, "not-delivered", "the job was removed before its reply was delivered");
        continue;
      }
      void this.track(this.deliver(job, entry, entry.pendingDelivery));
    }
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  private async execute(job: CronJob, runId: string): Promise<void> {
    const { deps } = this;
    const startedAt = deps.clock.now();
    job.state.runningAtMs = startedAt;
    job.state.runningRunId = runId;
    delete job.state.queuedRunId;
    // The slot is taken: a due time that comes while this run lasts is a skip, not this slot again.
    const following = nextRunAt(job.schedule, startedAt, job.createdAtMs);
    if (following === undefined) delete job.state.nextRunAtMs;
    else job.state.nextRunAtMs = following;
    deps.store().saveJob(job);
    deps.emit({ action: "started", jobId: job.id, runId, runAtMs: startedAt });
    deps.tasks?.started({
      runtime: "cron",
      runId,
      // A job names its agent; without one it is the default agent's (resolved with no id, which cannot fail).
      agentId: job.agentId ?? deps.conversations.resolveSessionKey(undefined, undefined).agentId,
      task: job.payload.kind === "systemEvent" ? job.payload.text : job.payload.message,
      sourceId: job.id,
      label: job.name,
    });
    let outcome: CronRunOutcome;
    try {
      outcome = await runJob(job, runId, { conversations: deps.conversations, channels: deps.channels, queueForHeartbeat: deps.queueForHeartbeat });
    } catch (err) {
      outcome = { status: "error", error: (err as Error).message, text: "" };
    }
    // A run cut short by our own shutdown stays marked running: the next start records it as interrupted.
    if (deps.stopping()) return;
    deps.tasks?.ended(runId, {
      status: outcome.status === "ok" ? "succeeded" : outcome.timedOut ? "timed_out" : "failed",
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.text ? { summary: outcome.text } : {}),
      ...(outcome.sessionKey ? { childSessionKey: outcome.sessionKey } : {}),
    });
    const endedAt = deps.clock.now();
    // Removed while it ran: there is no job left to record the run against. An edit while it ran
    // (`cron.update` replaces the job object) keeps the run: it is recorded, counted and
    // delivered against the job as it is now.
    const current = deps.job(job.id);
    if (!current) return;
    const entry = this.settle(current, runId, startedAt, endedAt, outcome);
    // A reply still owed keeps the job until it is delivered: a restart in between resends it through the job.
    const removeJob = isSpent(current, entry) && entry.pendingDelivery === undefined;
    deps.store().recordRun(entry, removeJob ? undefined : current);
    if (removeJob) deps.forget(current.id);
    deps.emit({
      action: "finished",
      jobId: current.id,
      runId,
      status: entry.status,
      durationMs: entry.durationMs,
      deliveryStatus: entry.deliveryStatus,
      ...(entry.error ? { error: entry.error } : {}),
      ...(entry.nextRunAtMs !== undefined ? { nextRunAtMs: entry.nextRunAtMs } : {}),
    });
    if (entry.pendingDelivery !== undefined) await this.deliver(current, entry, entry.pendingDelivery);
    if (current.state.pendingAlertRunId !== undefined) await this.sendAlert(current);
  }

  /** The job's state after a run, and the run's row. */
  private settle(job: CronJob, runId: string, startedAt: number, endedAt: number, outcome: CronRunOutcome): CronRunEntry {
    const state = job.state;
    delete state.runningAtMs;
    delete state.runningRunId;
    state.lastRunAtMs = startedAt;
    state.lastDurationMs = endedAt - startedAt;
    state.lastStatus = outcome.status;
    let next = nextRunAt(job.schedule, endedAt, job.createdAtMs);
    if (outcome.status === "ok") {
      state.consecutiveErrors = 0;
      delete state.lastError;
    } else {
      state.consecutiveErrors = (state.consecutiveErrors ?? 0) + 1;
      state.lastError = outcome.error ?? "error";
      const decision = onFailure(job, endedAt, outcome.permanent === true);
      if (decision.notBefore !== undefined) next = Math.max(next ?? 0, decision.notBefore);
      if (decision.alert) this.alert(job, endedAt, runId);
      if (decision.disable) {
        this.disable(job, decision.disable);
        next = undefined;
      }
    }
    if (job.schedule.kind === "at" && outcome.status === "ok") {
      job.enabled = false;
      state.disabledReason = "its one run is done";
      next = undefined;
    }
    if (next === undefined) delete state.nextRunAtMs;
    else state.nextRunAtMs = next;
    const delivery = deliveryPlan(job, outcome);
    state.lastDeliveryStatus = delivery.status;
    if (delivery.error) state.lastDeliveryError = delivery.error;
    else delete state.lastDeliveryError;
    const entry: CronRunEntry = {
      runId,
      jobId: job.id,
      jobName: job.name,
      ts: endedAt,
      action: "finished",
      status: outcome.status,
      runAtMs: startedAt,
      durationMs: endedAt - startedAt,
      deliveryStatus: delivery.status,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.text ? { summary: outcome.text.slice(0, SUMMARY_CHARS) } : {}),
      ...(next !== undefined ? { nextRunAtMs: next } : {}),
      ...(outcome.sessionKey ? { sessionKey: outcome.sessionKey } : {}),
      ...(outcome.model ? { model: outcome.model } : {}),
      ...(delivery.error ? { deliveryError: delivery.error } : {}),
      ...(delivery.status === "unknown" ? { pendingDelivery: outcome.text } : {}),
    };
    return entry;
  }

  private async deliver(job: CronJob, entry: CronRunEntry, text: string): Promise<void> {
    const { deps } = this;
    const config = deps.config().cron;
    const result = await deliverRun(job, entry, text, {
      channels: deps.channels,
      conversations: deps.conversations,
      ...(config?.webhookToken ? { webhookToken: config.webhookToken } : {}),
      webhookPolicy: webhookPolicy(deps.config()),
    });
    if (deps.stopping() && result.status !== "delivered") return;
    deps.store().settleDelivery(entry.runId, result.status, result.error);
    const current = deps.job(job.id);
    if (current && isSpent(current, entry)) {
      deps.store().removeJob(current.id);
      deps.forget(current.id);
    } else if (current) {
      current.state.lastDeliveryStatus = result.status;
      if (result.error) current.state.lastDeliveryError = result.error;
      else delete current.state.lastDeliveryError;
      deps.store().saveJob(current);
    }
    if (result.status !== "delivered") deps.logger.warn({ jobId: job.id, runId: entry.runId, err: result.error }, "cron run reply not delivered");
  }

  /** Failure alerts recorded before a crash but not sent go out now (the ledger keeps each to once). */
  resumeOwedAlerts(jobs: readonly CronJob[]): void {
    for (const job of jobs) if (job.state.pendingAlertRunId !== undefined) void this.track(this.sendAlert(job));
  }

  /** The owed alert to the job's chat (or `cron.failureAlert`'s), once per run through the delivery ledger. */
  private async sendAlert(job: CronJob): Promise<void> {
    const runId = job.state.pendingAlertRunId!;
    const { deps } = this;
    const route = failureAlertRoute(job, deps.config(), deps);
    try {
      if (route && "error" in route) deps.logger.warn({ jobId: job.id, runId, err: route.error }, "cron failure alert has no chat to go to");
      else if (route) await deps.channels()!.send(route, failureAlertText(job), failureAlertKey(runId));
    } catch (err) {
      deps.logger.warn({ jobId: job.id, runId, err: (err as Error).message }, "cron failure alert could not be sent");
    }
    if (deps.stopping()) return;
    const current = deps.job(job.id);
    if (current?.state.pendingAlertRunId !== runId) return;
    delete current.state.pendingAlertRunId;
    deps.store().saveJob(current);
  }

  private alert(job: CronJob, now: number, runId: string): void {
    job.state.lastAlertAtMs = now;
    if (this.deps.config().cron?.failureAlert?.enabled !== false) job.state.pendingAlertRunId = runId;
    this.deps.logger.warn({ jobId: job.id, name: job.name, consecutiveErrors: job.state.consecutiveErrors, err: job.state.lastError }, "cron job keeps failing");
    this.deps.emit({
      action: "alert",
      jobId: job.id,
      jobName: job.name,
      consecutiveErrors: job.state.consecutiveErrors ?? 0,
      ...(job.state.lastError ? { lastError: job.state.lastError } : {}),
    });
  }

  private disable(job: CronJob, reason: string): void {
    job.enabled = false;
    job.state.disabledReason = reason;
    this.deps.logger.warn({ jobId: job.id, name: job.name, reason }, "cron job disabled");
    this.deps.emit({ action: "disabled", jobId: job.id, reason });
  }
}

/** A one-shot `deleteAfterRun` job whose run succeeded is removed (its run history stays). */
function isSpent(job: CronJob, entry: CronRunEntry): boolean {
  return job.deleteAfterRun === true && job.schedule.kind === "at" && entry.status === "ok";
}

function deliveryPlan(job: CronJob, outcome: CronRunOutcome): { status: CronDeliveryStatus; error?: string } {
  if (job.delivery.mode === "none") return { status: "not-requested" };
  // A session hears about failures too: its agent can tell the user the job did not work.
  if (job.delivery.mode === "session" && outcome.status !== "ok") return { status: "unknown" };
  if (outcome.status !== "ok") return { status: "not-delivered", error: "the run failed" };
  if (!outcome.text) return { status: "not-delivered", error: "nothing to deliver (silent reply or HEARTBEAT_OK)" };
  return { status: "unknown" };
}
