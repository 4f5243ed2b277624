/**
 * Session lanes (see docs/sessions.md, "Lanes"): every key (a session key) is a FIFO that runs one
 * task at a time, so two turns of one conversation never overlap or reorder; all keys together
 * share a global cap (`agents.defaults.maxConcurrent`) so a burst of conversations cannot overload
 * the process. Pure promises, no workers.
 *
 * Fairness: when the cap is full, the next start goes to the key that has been *runnable* the
 * longest. A key becomes runnable when it has a queued task and nothing running, so a key that
 * just finished a task goes to the back of the line even if it queued 100 tasks up front. This
 * keeps one chatty session from starving the others. Hand-written because queue libraries
 * (p-queue, p-limit) order by arrival or priority and do not give this per-key fairness.
 *
 * Pools: keys may belong to a pool with its own cap instead of the global one (sub-agent sessions
 * run on the `subagent` pool), so a burst of background children neither waits for nor crowds out
 * the conversations people are having.
 */
import { LaneAbortedError, LaneDrainingError } from "./lane-errors.js";

export type LaneTask<T> = (signal: AbortSignal) => Promise<T>;

export interface EnqueueOptions {
  /**
   * Aborting it while the task is queued removes the task and rejects with `LaneAbortedError`
   * (the task never runs). Aborting it while the task runs aborts the task's own signal.
   */
  signal?: AbortSignal;
  /** Called when the task starts after waiting at least `warnAfterMs` (for "slow lane" logs). */
  onWait?: (waitedMs: number) => void;
  /** Default 2000 ms, as in OpenClaw's lane wait warning. */
  warnAfterMs?: number;
}

/** Keys `matches` selects run under their own cap (the first matching pool wins). */
export interface LanePool {
  name: string;
  maxConcurrent: number;
  matches(key: string): boolean;
}

export interface LaneSchedulerOptions {
  /** Cap on tasks running at once across all keys outside the pools. An integer ≥ 1. */
  maxConcurrent: number;
  pools?: LanePool[];
  /** Monotonic clock for wait times; injectable for tests. */
  now?: () => number;
}

const DEFAULT_WARN_AFTER_MS = 2_000;

interface Entry {
  readonly key: string;
  readonly task: LaneTask<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly controller: AbortController;
  readonly enqueuedAt: number;
  readonly options: EnqueueOptions;
  detachCallerSignal: () => void;
}

interface Lane {
  readonly queue: Entry[];
  /** The pool's name, or "" for the global cap. */
  readonly pool: string;
  active?: Entry;
}

const GLOBAL_POOL = "";

export class LaneScheduler {
  private readonly lanes = new Map<string, Lane>();
  /** Keys with a queued task and nothing running, in the order they became runnable. */
  private readonly runnable = new Set<string>();
  private readonly pools: LanePool[];
  /** Cap and running count per pool name ("" is the global cap). */
  private readonly caps = new Map<string, number>();
  private readonly runningIn = new Map<string, number>();
  private running = 0;
  private pumping = false;
  private draining = false;
  private drained?: { promise: Promise<void>; resolve: () => void };
  private readonly now: () => number;

  constructor(options: LaneSchedulerOptions) {
    this.pools = options.pools ?? [];
    this.caps.set(GLOBAL_POOL, checkedCap(options.maxConcurrent));
    for (const pool of this.pools) this.caps.set(pool.name, checkedCap(pool.maxConcurrent));
    this.now = options.now ?? (() => performance.now());
  }

  get activeCount(): number {
    return this.running;
  }

  isActive(key: string): boolean {
    return this.lanes.get(key)?.active !== undefined;
  }

  queuedCount(key: string): number {
    return this.lanes.get(key)?.queue.length ?? 0;
  }

  /** Lowering the cap never stops running tasks; it only holds back the next starts. */
  setMaxConcurrent(maxConcurrent: number): void {
    this.caps.set(GLOBAL_POOL, checkedCap(maxConcurrent));
    this.pump();
  }

  /** The same for one pool; unknown pool names are refused. */
  setPoolMaxConcurrent(pool: string, maxConcurrent: number): void {
    if (!this.pools.some((p) => p.name === pool)) throw new RangeError(`unknown lane pool "${pool}"`);
    this.caps.set(pool, checkedCap(maxConcurrent));
    this.pump();
  }

  enqueue<T>(key: string, task: LaneTask<T>, options: EnqueueOptions = {}): Promise<T> {
    if (this.draining) return Promise.reject(new LaneDrainingError(key));
    const callerSignal = options.signal;
    if (callerSignal?.aborted) return Promise.reject(new LaneAbortedError(key, callerSignal.reason));

    return new Promise<T>((resolve, reject) => {
      const entry: Entry = {
        key,
        task,
        resolve: resolve as (value: unknown) => void,
        reject,
        controller: new AbortController(),
        enqueuedAt: this.now(),
        options,
        detachCallerSignal: () => {},
      };
      if (callerSignal) {
        const onAbort = (): void => this.onCallerAbort(entry, callerSignal.reason);
        callerSignal.addEventListener("abort", onAbort, { once: true });
        entry.detachCallerSignal = () => callerSignal.removeEventListener("abort", onAbort);
      }
      const lane = this.laneFor(key);
      lane.queue.push(entry);
      if (!lane.active) this.runnable.add(key); // no-op if already waiting: keeps its place
      this.pump();
    });
  }

  /** Aborts the running task's signal (e.g. `/stop` or queue mode `interrupt`). False if idle. */
  abortActive(key: string, reason?: unknown): boolean {
    const active = this.lanes.get(key)?.active;
    if (!active) return false;
    active.controller.abort(reason);
    return true;
  }

  /**
   * Stops accepting work: later `enqueue` calls reject with `LaneDrainingError`. Tasks already
   * accepted (running or queued) still run, because rejecting them here would lose turns the
   * user was promised. Resolves once nothing is running or queued.
   */
  drain(): Promise<void> {
    this.draining = true;
    if (!this.drained) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.drained = { promise, resolve };
    }
    this.resolveDrainIfIdle();
    return this.drained.promise;
  }

  private laneFor(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { queue: [], pool: this.pools.find((p) => p.matches(key))?.name ?? GLOBAL_POOL };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private onCallerAbort(entry: Entry, reason: unknown): void {
    const lane = this.lanes.get(entry.key);
    if (!lane) return;
    if (lane.active === entry) {
      entry.controller.abort(reason);
      return;
    }
    const index = lane.queue.indexOf(entry);
    if (index < 0) return;
    lane.queue.splice(index, 1);
    entry.detachCallerSignal();
    if (lane.queue.length === 0) this.runnable.delete(entry.key);
    this.forgetIfIdle(entry.key, lane);
    entry.reject(new LaneAbortedError(entry.key, reason));
    this.resolveDrainIfIdle();
  }

  private pump(): void {
    // A task may enqueue synchronously while we start it; the outer loop picks that up.
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const key = this.nextStartable();
        if (key === undefined) break;
        this.runnable.delete(key);
        this.start(key);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** The longest-runnable key whose pool has room. */
  private nextStartable(): string | undefined {
    for (const key of this.runnable) {
      const pool = this.lanes.get(key)?.pool ?? GLOBAL_POOL;
      if ((this.runningIn.get(pool) ?? 0) < this.caps.get(pool)!) return key;
    }
    return undefined;
  }

  private start(key: string): void {
    const lane = this.lanes.get(key);
    const entry = lane?.queue.shift();
    if (!lane || !entry) return;
    lane.active = entry;
    this.running += 1;
    this.runningIn.set(lane.pool, (this.runningIn.get(lane.pool) ?? 0) + 1);
    this.reportWait(entry);
    runTask(entry.task, entry.controller.signal).then(
      (value) => this.finish(lane, entry, () => entry.resolve(value)),
      (error: unknown) => this.finish(lane, entry, () => entry.reject(error)),
    );
  }

  /** A failed task only fails its own promise; the lane moves on to the next task. */
  private finish(lane: Lane, entry: Entry, settle: () => void): void {
    entry.detachCallerSignal();
    lane.active = undefined;
    this.running -= 1;
    this.runningIn.set(lane.pool, this.runningIn.get(lane.pool)! - 1);
    if (lane.queue.length > 0) this.runnable.add(entry.key);
    this.forgetIfIdle(entry.key, lane);
    settle();
    this.pump();
    this.resolveDrainIfIdle();
  }

  private reportWait(entry: Entry): void {
    const { onWait, warnAfterMs = DEFAULT_WARN_AFTER_MS } = entry.options;
    if (!onWait) return;
    const waitedMs = this.now() - entry.enqueuedAt;
    if (waitedMs < warnAfterMs) return;
    try {
      onWait(waitedMs);
    } catch {
      // A faulty observer must not keep the task from running.
    }
  }

  /** Idle lanes are deleted so many short-lived sessions don't grow memory. */
  private forgetIfIdle(key: string, lane: Lane): void {
    if (!lane.active && lane.queue.length === 0) this.lanes.delete(key);
  }

  private resolveDrainIfIdle(): void {
    // With nothing running, every queued task sits in a runnable lane, so both sets empty = idle.
    if (this.drained && this.running === 0 && this.runnable.size === 0) this.drained.resolve();
  }
}

function runTask(task: LaneTask<unknown>, signal: AbortSignal): Promise<unknown> {
  try {
    return Promise.resolve(task(signal));
  } catch (error) {
    // A task that throws synchronously is treated like one that rejected.
    return Promise.reject(error);
  }
}

function checkedCap(value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`maxConcurrent must be an integer ≥ 1, got ${value}`);
  }
  return value;
}
