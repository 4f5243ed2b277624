import type { CronClock, CronTimer } from "./clock.js";
import type { CronJob } from "./types.js";

/** The longest the scheduler sleeps: a wall clock that jumps is noticed within a minute. */
export const MAX_SLEEP_MS = 60_000;

export interface SchedulerDeps {
  clock: CronClock;
  jobs(): Iterable<CronJob>;
  job(id: string): CronJob | undefined;
  maxConcurrent(): number;
  /** Runs the job to its end (never rejects). */
  run(job: CronJob, runId: string | undefined): Promise<void>;
  /** The job came due while its previous run still runs: that slot is skipped. */
  skip(job: CronJob, now: number): void;
}

/**
 * When jobs start: one timer armed for the earliest due job, a FIFO of due jobs and a cap on
 * how many run at once. A job never runs twice at the same time; a due slot that finds it still
 * running is skipped (and recorded by `skip`), not queued behind it.
 */
export class CronScheduler {
  private timer?: CronTimer;
  private readonly queue: { jobId: string; runId?: string }[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  private active = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** `owed`: runs accepted before a restart or a stop that never started; they go first. */
  start(owed: readonly { jobId: string; runId: string }[] = []): void {
    this.active = true;
    for (const run of owed) {
      if (this.queued.has(run.jobId) || this.running.has(run.jobId)) continue;
      this.queue.push(run);
      this.queued.add(run.jobId);
    }
    this.tick();
  }

  isQueued(jobId: string): boolean {
    return this.queued.has(jobId);
  }

  stop(): void {
    this.active = false;
    this.timer?.cancel();
    this.timer = undefined;
    this.queue.length = 0;
    this.queued.clear();
    this.notifyIdle();
  }

  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  get runningCount(): number {
    return this.running.size;
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  /** Queue a run now, whatever the schedule says. False when the job is already queued or running. */
  enqueue(jobId: string, runId?: string): boolean {
    if (!this.active || this.queued.has(jobId) || this.running.has(jobId)) return false;
    this.queue.push({ jobId, ...(runId ? { runId } : {}) });
    this.queued.add(jobId);
    this.pump();
    return true;
  }

  /** Start every due job (up to the cap) and sleep until the next one. Also the answer to "the jobs changed". */
  tick(): void {
    if (!this.active) return;
    const now = this.deps.clock.now();
    let earliest = Infinity;
    for (const job of this.deps.jobs()) {
      const next = job.state.nextRunAtMs;
      if (!job.enabled || next === undefined) continue;
      if (next > now) {
        if (next < earliest) earliest = next;
        continue;
      }
      if (this.running.has(job.id)) {
        this.deps.skip(job, now);
        const after = job.state.nextRunAtMs;
        if (after !== undefined && after > now && after < earliest) earliest = after;
      } else if (!this.queued.has(job.id)) {
        this.queue.push({ jobId: job.id });
        this.queued.add(job.id);
      }
    }
    this.pump();
    this.arm(earliest, now);
  }

  /** Resolves when nothing is queued or running. */
  whenIdle(): Promise<void> {
    if (this.queue.length === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private arm(earliest: number, now: number): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (!this.active) return;
    const delay = Math.min(Math.max(earliest - now, 0), MAX_SLEEP_MS);
    this.timer = this.deps.clock.setTimer(() => this.tick(), delay);
  }

  private pump(): void {
    while (this.active && this.queue.length > 0 && this.running.size < Math.max(1, this.deps.maxConcurrent())) {
      const next = this.queue.shift()!;
      this.queued.delete(next.jobId);
      const job = this.deps.job(next.jobId);
      if (!job) continue;
      this.running.add(job.id);
      void this.deps.run(job, next.runId).finally(() => {
        this.running.delete(job.id);
        this.pump();
        if (this.active) this.tick();
        if (this.queue.length === 0 && this.running.size === 0) this.notifyIdle();
      });
    }
    if (this.queue.length === 0 && this.running.size === 0) this.notifyIdle();
  }

  private notifyIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
