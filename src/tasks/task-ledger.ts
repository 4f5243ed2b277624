import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { Logger } from "../infra/logger.js";
import { TaskStore, type TaskQuery } from "./task-store.js";
import type { TaskEnd, TaskLedgerChange, TaskRecord, TaskRecorder, TaskStart } from "./types.js";

const PRUNE_INTERVAL_MS = 60 * 60_000;
const LOST_ERROR = "the gateway stopped while this task ran (crash, kill or shutdown); nothing runs it now";

export interface TaskLedgerOptions {
  stateDir: string;
  logger: Pick<Logger, "warn">;
  now?: () => number;
  /** Told each change after it is written; a throw is logged, never fails the write. */
  onChange?: (change: TaskLedgerChange) => void;
}

/**
 * The gateway's background task ledger (docs/automation.md, "Background tasks"). Producers record
 * through `started`/`ended`, which return at once: the writes run in order once the store is open.
 * The store is opened at start when its file exists, else with the first task, so a gateway that
 * never runs background work never loads SQLite.
 */
export class TaskLedger implements TaskRecorder {
  private readonly file: string;
  private readonly now: () => number;
  private opening?: Promise<TaskStore>;
  private pruneTimer?: NodeJS.Timeout;
  private closed = false;
  private recording = true;

  constructor(private readonly opts: TaskLedgerOptions) {
    this.file = TaskStore.fileIn(opts.stateDir);
    this.now = opts.now ?? Date.now;
  }

  /** Tasks the last process left unfinished become `lost`; ended ones past retention go. Then hourly maintenance. */
  async start(): Promise<void> {
    if (fs.existsSync(this.file)) {
      await this.write((store) => {
        const lost = store.markUnfinishedLost(this.now(), LOST_ERROR);
        if (lost > 0) this.opts.logger.warn({ lost }, "background tasks left running by the last shutdown were marked lost");
        if (lost > 0) this.notify({ kind: "restored" });
        this.notifyDeleted(store.prune(this.now()));
      });
    }
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
  }

  started(start: TaskStart): void {
    if (!this.recording) return;
    void this.write((store) => {
      if (store.insert(randomUUID(), start, this.now())) this.notifyUpserted(store, start.runId);
    });
  }

  ended(runId: string, end: TaskEnd): void {
    if (this.recording) void this.end(runId, end);
  }

  /**
   * The gateway is stopping: runs its drain aborts are not recorded as ended by their producers, so
   * each task still running is `lost` at the next start, whichever producer ran it.
   */
  stopRecording(): void {
    this.recording = false;
  }

  /** Ends `runId`'s task as the caller says, after the writes queued before it; true when this ended it. */
  async end(runId: string, end: TaskEnd): Promise<boolean> {
    const ended = await this.write((store) => {
      const changed = store.end(runId, end, this.now());
      if (changed) this.notifyUpserted(store, runId);
      return changed;
    });
    return ended ?? false;
  }

  async list(query: TaskQuery): Promise<TaskRecord[]> {
    return (await this.read((store) => store.list(query))) ?? [];
  }

  async lookup(token: string): Promise<TaskRecord | undefined> {
    return this.read((store) => store.lookup(token));
  }

  /** Deletes the ended tasks past retention; returns how many. */
  async prune(): Promise<number> {
    const deleted = (await this.read((store) => store.prune(this.now()))) ?? [];
    this.notifyDeleted(deleted);
    return deleted.length;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.pruneTimer);
    const opening = this.opening;
    this.opening = undefined;
    if (opening) (await opening.catch(() => undefined))?.close();
  }

  /** Reads the store if it exists (an absent ledger has no tasks); reads wait for earlier writes. */
  private async read<T>(fn: (store: TaskStore) => T): Promise<T | undefined> {
    if (!this.opening && !fs.existsSync(this.file)) return undefined;
    const store = await this.open();
    return fn(store);
  }

  /** Writes after the ones queued before; a failure is logged (with no task text), never thrown at a producer. */
  private async write<T>(fn: (store: TaskStore) => T): Promise<T | undefined> {
    if (this.closed) return undefined;
    try {
      return fn(await this.open());
    } catch (err) {
      this.opts.logger.warn({ err: (err as Error).message }, "background task ledger write failed");
      return undefined;
    }
  }

  private notifyUpserted(store: TaskStore, runId: string): void {
    const task = store.byRunId(runId);
    if (task) this.notify({ kind: "upserted", task });
  }

  private notifyDeleted(taskIds: string[]): void {
    for (const taskId of taskIds) this.notify({ kind: "deleted", taskId });
  }

  private notify(change: TaskLedgerChange): void {
    if (!this.opts.onChange) return;
    try {
      this.opts.onChange(change);
    } catch (err) {
      this.opts.logger.warn({ err: (err as Error).message, change: change.kind }, "background task change not published");
    }
  }

  private open(): Promise<TaskStore> {
    if (this.closed) return Promise.reject(new Error("the task ledger is closed (the gateway is stopping)"));
    this.opening ??= TaskStore.open(this.file);
    const opening = this.opening;
    // A failed open is not kept: the next write tries again.
    opening.catch(() => {
      if (this.opening === opening) this.opening = undefined;
    });
    return opening;
  }
}
