import { randomUUID } from "node:crypto";
import { cronDeliveryPreview, type CronDeliveryPreview } from "./delivery-preview.js";
import type { TurnOverrides } from "../agents/embedded-turn.js";
import { unknownAgentRefusal } from "../agents/known-agent.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { parseSessionKey } from "../sessions/keys/session-key.js";
import { systemClock, type CronClock, type CronTimer } from "./clock.js";
import { CronStore, type RunQuery } from "./cron-store.js";
import { cronListPage, type CronListPage } from "./list-page.js";
import { assertJobTargets } from "./job-targets.js";
import { createJob, JobInputError, patchJob, type CronJobInput, type CronJobPatch } from "./job-input.js";
import type { CronChannelPort, CronConversations, CronEvent } from "./ports.js";
import { CronRunPipeline } from "./run-pipeline.js";
import type { TaskRecorder } from "../tasks/index.js";
import { CronScheduler } from "./scheduler.js";
import { nextRunAt } from "./schedule.js";
import type { CronJob, CronRunEntry } from "./types.js";
import { CRON_STOP_WAIT_MS } from "./stop-wait.js";

export interface CronServiceDeps {
  stateDir: string;
  config: () => OpenClawConfig;
  conversations: CronConversations;
  channels: () => CronChannelPort | undefined;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  emit: (event: CronEvent) => void;
  clock?: CronClock;
  queueForHeartbeat?: (agentId: string, sessionKey: string, text: string, key: string) => boolean;
  /** The background task ledger: every run is a `cron` task. */
  tasks?: TaskRecorder;
}

export interface ListQuery {
  includeDisabled?: boolean;
  enabled?: "all" | "enabled" | "disabled";
  query?: string;
  limit?: number;
  offset?: number;
  sortBy?: "nextRunAtMs" | "updatedAtMs" | "name";
  sortDir?: "asc" | "desc";
}

export class CronUnavailableError extends Error {}
export class CronNotFoundError extends Error {
  constructor(readonly jobId: string) {
    super(`cron job not found: ${jobId} (openclaw cron list shows the ids)`);
  }
}
export { JobInputError };

const PRUNE_EVERY_MS = 60 * 60_000;
const DEFAULT_MAX_CONCURRENT_RUNS = 1;

/**
 * Scheduled jobs inside the gateway (docs/automation.md): the jobs in memory and in the store,
 * the scheduler that starts them and the pipeline that runs, records and delivers each run.
 */
export class CronService {
  private readonly jobs = new Map<string, CronJob>();
  private readonly clock: CronClock;
  private readonly scheduler: CronScheduler;
  private readonly pipeline: CronRunPipeline;
  private store?: CronStore;
  private opening?: Promise<CronStore>;
  private pruneTimer?: CronTimer;
  private started = false;
  private stopping = false;

  constructor(private readonly deps: CronServiceDeps) {
    this.clock = deps.clock ?? systemClock;
    this.pipeline = new CronRunPipeline({
      clock: this.clock,
      logger: deps.logger,
      emit: deps.emit,
      conversations: deps.conversations,
      channels: deps.channels,
      config: deps.config,
      queueForHeartbeat: deps.queueForHeartbeat,
      store: () => this.store!,
      job: (id) => this.jobs.get(id),
      forget: (id) => this.jobs.delete(id),
      stopping: () => this.stopping,
      ...(deps.tasks ? { tasks: deps.tasks } : {}),
    });
    this.scheduler = new CronScheduler({
      clock: this.clock,
      jobs: () => this.jobs.values(),
      job: (id) => this.jobs.get(id),
      maxConcurrent: () => deps.config().cron?.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS,
      run: (job, runId) => this.pipeline.run(job, runId),
      skip: (job, now) => this.pipeline.skip(job, now),
    });
  }

  /** Off with `cron.enabled: false` or `OPENCLAW_SKIP_CRON=1`. */
  get enabled(): boolean {
    return this.deps.config().cron?.enabled !== false && !isTruthy(this.deps.env.OPENCLAW_SKIP_CRON);
  }

  /** Loads the jobs (when the store exists), records runs a crash cut short, and starts the scheduler. */
  async start(): Promise<void> {
    if (!this.enabled || this.started) return;
    this.started = true;
    if (CronStore.exists(this.deps.stateDir)) {
      const store = await this.openStore();
      const { jobs, unreadable } = store.loadJobs();
      if (unreadable.length > 0) this.deps.logger.warn({ jobs: unreadable }, "cron jobs whose stored record is unreadable were skipped");
      for (const job of jobs) this.jobs.set(job.id, job);
      this.pipeline.recoverInterrupted([...this.jobs.values()]);
      this.planMissing();
      this.pipeline.resumeOwedDeliveries();
      this.pipeline.resumeOwedAlerts([...this.jobs.values()]);
      this.prune();
    }
    if (this.stopping) return;
    this.startScheduler();
    this.deps.logger.info({ jobs: this.jobs.size }, "cron started");
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pruneTimer?.cancel();
    this.scheduler.stop();
    // Runs end when the conversation core drains; one still going then is recorded as interrupted at the next start.
    await Promise.race([this.pipeline.whenSettled(), new Promise((resolve) => setTimeout(resolve, CRON_STOP_WAIT_MS).unref())]);
    this.store?.close();
  }

  /** Resolves once nothing is queued or running (tests and benches wait on it). */
  whenIdle(): Promise<void> {
    return this.scheduler.whenIdle().then(() => this.pipeline.whenSettled());
  }

  /** A reloaded config: `cron.enabled` (and OPENCLAW_SKIP_CRON) turn the scheduler on or off without a restart. */
  async applyConfig(): Promise<void> {
    if (this.stopping) return;
    if (!this.enabled) {
      if (this.started) this.deps.logger.info("cron disabled by config; no job runs until it is enabled again");
      this.scheduler.stop();
      return;
    }
    if (!this.started) return this.start();
    this.startScheduler();
  }

  /** Look again at what is due (after the clock moved, or the config changed). */
  wake(): void {
    this.scheduler.tick();
  }

  status(): { enabled: boolean; jobs: number; enabledJobs: number; running: number; queued: number; nextRunAtMs?: number; storePath: string } {
    let enabledJobs = 0;
    let next: number | undefined;
    for (const job of this.jobs.values()) {
      if (!job.enabled) continue;
      enabledJobs++;
      if (job.state.nextRunAtMs !== undefined && (next === undefined || job.state.nextRunAtMs < next)) next = job.state.nextRunAtMs;
    }
    return {
      enabled: this.enabled,
      jobs: this.jobs.size,
      enabledJobs,
      running: this.scheduler.runningCount,
      queued: this.scheduler.queuedCount,
      ...(next !== undefined ? { nextRunAtMs: next } : {}),
      storePath: CronStore.fileIn(this.deps.stateDir),
    };
  }

  /** Where a job's result would go if it ran now (`cron.list`'s `deliveryPreviews`); nothing is sent. */
  deliveryPreview(job: CronJob): CronDeliveryPreview {
    return cronDeliveryPreview(job, { channels: this.deps.channels, conversations: this.deps.conversations });
  }

  list(query: ListQuery = {}): CronListPage {
    const filter = query.enabled ?? (query.includeDisabled === false ? "enabled" : "all");
    const needle = query.query?.toLowerCase();
    const jobs = [...this.jobs.values()].filter(
      (job) => (filter === "all" || (filter === "enabled") === job.enabled) && (!needle || `${job.name} ${job.description ?? ""} ${job.id}`.toLowerCase().includes(needle)),
    );
    const sortBy = query.sortBy ?? "nextRunAtMs";
    const dir = query.sortDir === "desc" ? -1 : 1;
    const key = (job: CronJob): number | string =>
      sortBy === "name" ? job.name.toLowerCase() : sortBy === "updatedAtMs" ? job.updatedAtMs : (job.state.nextRunAtMs ?? Number.MAX_SAFE_INTEGER);
    jobs.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.createdAtMs - b.createdAtMs));
    return cronListPage(jobs, query.offset, query.limit);
  }

  get(id: string): CronJob | undefined {
    const job = this.jobs.get(id);
    return job ? structuredClone(job) : undefined;
  }

  async add(input: CronJobInput): Promise<CronJob> {
    this.assertEnabled();
    const job = createJob(input, this.clock.now());
    this.assertKnownAgent(job.agentId);
    this.assertKnownSessionAgents(job, { target: true, delivery: true });
    assertJobTargets(job, this.targetDeps(), { payload: true, delivery: true });
    this.plan(job, this.clock.now());
    const store = await this.openStore();
    store.saveJob(job);
    this.jobs.set(job.id, job);
    this.deps.emit({ action: "added", jobId: job.id });
    this.deps.logger.info({ jobId: job.id, name: job.name, nextRunAtMs: job.state.nextRunAtMs }, "cron job added");
    this.scheduler.tick();
    return structuredClone(job);
  }

  async update(id: string, patch: CronJobPatch): Promise<CronJob> {
    this.assertEnabled();
    const job = this.require(id);
    const next = patchJob(job, patch, this.clock.now());
    // Only what the patch names is checked: a job whose agent, model or channel left the config can still be edited (or disabled).
    if (patch.agentId !== undefined) this.assertKnownAgent(next.agentId);
    this.assertKnownSessionAgents(next, { target: patch.sessionTarget !== undefined, delivery: patch.delivery !== undefined });
    assertJobTargets(next, this.targetDeps(), { payload: patch.payload !== undefined, delivery: patch.delivery !== undefined });
    if (next.state.nextRunAtMs === undefined || patch.enabled === true) this.plan(next, this.clock.now());
    (await this.openStore()).saveJob(next);
    this.jobs.set(id, next);
    this.deps.emit({ action: "updated", jobId: id });
    this.scheduler.tick();
    return structuredClone(next);
  }

  private targetDeps() {
    return { config: this.deps.config(), env: this.deps.env, channels: this.deps.channels() };
  }

  private assertKnownAgent(agentId: string | undefined): void {
    const refusal = unknownAgentRefusal(this.deps.config(), agentId);
    if (refusal) throw new JobInputError(`agentId: ${refusal}`);
  }

  /** A session key of the form `agent:<id>:…` (the job's own session, or the one it reports to) names its agent too. */
  private assertKnownSessionAgents(job: CronJob, which: { target: boolean; delivery: boolean }): void {
    const keys: [string, string][] = [];
    if (which.target && job.sessionTarget.startsWith("session:")) keys.push(["sessionTarget", job.sessionTarget.slice("session:".length)]);
    if (which.delivery && job.delivery.mode === "session" && job.delivery.to) keys.push(["delivery.to", job.delivery.to]);
    for (const [field, key] of keys) {
      if (!key.toLowerCase().startsWith("agent:")) continue;
      let agentId: string;
      try {
        agentId = parseSessionKey(key).agentId;
      } catch (err) {
        throw new JobInputError(`${field}: ${(err as Error).message}`);
      }
      const refusal = unknownAgentRefusal(this.deps.config(), agentId);
      if (refusal) throw new JobInputError(`${field}: ${refusal}`);
    }
  }

  async remove(id: string): Promise<{ removed: boolean }> {
    this.assertEnabled();
    if (!this.jobs.has(id)) return { removed: false };
    (await this.openStore()).deleteJob(id);
    this.jobs.delete(id);
    this.deps.emit({ action: "removed", jobId: id });
    return { removed: true };
  }

  /** Start a run now (`force`), or only when the job is due (`due`). Returns the run's id, or why none started. */
  run(id: string, mode: "force" | "due" = "force"): { ran: true; runId: string } | { ran: false; reason: string } {
    this.assertEnabled();
    const job = this.require(id);
    if (mode === "due" && !(job.enabled && job.state.nextRunAtMs !== undefined && job.state.nextRunAtMs <= this.clock.now())) return { ran: false, reason: "not due" };
    if (this.scheduler.isRunning(id)) return { ran: false, reason: "already running" };
    const runId = randomUUID();
    if (!this.scheduler.enqueue(id, runId)) return { ran: false, reason: "already queued" };
    // Waiting for a slot: on disk before the answer, so a restart still starts it (an immediate start has already marked it running).
    if (this.scheduler.isQueued(id)) {
      job.state.queuedRunId = runId;
      this.store!.saveJob(job);
    }
    return { ran: true, runId };
  }

  runs(query: Partial<RunQuery>): { entries: CronRunEntry[]; total: number } {
    if (!this.store) return { entries: [], total: 0 };
    return this.store.listRuns({ limit: Math.min(query.limit ?? 50, 200), offset: query.offset ?? 0, sortDir: query.sortDir ?? "desc", ...stripUndefined(query) });
  }

  /** The settings an isolated run of a job brings to its session's turns (model, thinking, timeout, light context). */
  turnOverrides(sessionKey: string): TurnOverrides | undefined {
    const match = /(?:^|:)cron:([^:]+)$/.exec(sessionKey);
    const job = match ? this.jobs.get(match[1]!) : undefined;
    if (job?.sessionTarget !== "isolated" || job.payload.kind !== "agentTurn") return undefined;
    const p = job.payload;
    return {
      senderIsOwner: false,
      ...(p.model ? { modelOverride: p.model } : {}),
      ...(p.fallbacks ? { modelFallbacks: p.fallbacks } : {}),
      ...(p.tools ? { runToolAllow: { source: `cron job ${job.id} payload.tools`, entries: p.tools } } : {}),
      ...(p.thinking ? { thinkingLevel: p.thinking } : {}),
      ...(p.timeoutSeconds !== undefined ? { timeoutSeconds: p.timeoutSeconds } : {}),
      ...(p.lightContext ? { lightContext: true } : {}),
    };
  }

  /** Starts the scheduler with the runs `cron.run` accepted that had not started when it last stopped. */
  private startScheduler(): void {
    const owed: { jobId: string; runId: string }[] = [];
    for (const job of this.jobs.values()) if (job.state.queuedRunId !== undefined) owed.push({ jobId: job.id, runId: job.state.queuedRunId });
    this.scheduler.start(owed);
  }

  private plan(job: CronJob, now: number): void {
    if (!job.enabled) return;
    const next = nextRunAt(job.schedule, now, job.createdAtMs);
    if (next === undefined) {
      job.enabled = false;
      job.state.disabledReason = "its schedule has no future run";
      delete job.state.nextRunAtMs;
    } else job.state.nextRunAtMs = next;
  }

  /** Enabled jobs without a next run (older records, or re-enabled ones) get one; a missed run stays due, and runs once. */
  private planMissing(): void {
    const now = this.clock.now();
    const changed: CronJob[] = [];
    for (const job of this.jobs.values()) {
      if (!job.enabled) continue;
      if (job.state.nextRunAtMs === undefined) {
        this.plan(job, now);
        changed.push(job);
      } else if (job.state.nextRunAtMs < now) {
        this.deps.logger.info({ jobId: job.id, name: job.name, missedAtMs: job.state.nextRunAtMs }, "cron job missed while the gateway was down; running it once now");
      }
    }
    if (changed.length > 0) this.store!.saveJobs(changed);
  }

  private prune(): void {
    const removed = this.store?.prune(this.clock.now(), [...this.jobs.keys()]) ?? 0;
    if (removed > 0) this.deps.logger.debug({ removed }, "cron run history pruned");
    this.pruneTimer = this.clock.setTimer(() => this.prune(), PRUNE_EVERY_MS);
  }

  private openStore(): Promise<CronStore> {
    if (this.store) return Promise.resolve(this.store);
    this.opening ??= CronStore.open(this.deps.stateDir).then((store) => {
      this.store = store;
      if (!this.pruneTimer) this.pruneTimer = this.clock.setTimer(() => this.prune(), PRUNE_EVERY_MS);
      return store;
    });
    return this.opening;
  }

  private assertEnabled(): void {
    if (!this.enabled) throw new CronUnavailableError("cron is disabled on this gateway (cron.enabled: false or OPENCLAW_SKIP_CRON=1)");
  }

  private require(id: string): CronJob {
    const job = this.jobs.get(id);
    if (!job) throw new CronNotFoundError(id);
    return job;
  }
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
