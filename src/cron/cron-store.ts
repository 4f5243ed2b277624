import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { loadSqlite } from "../infra/sqlite-module.js";
import type { CronDeliveryStatus, CronJob, CronRunEntry, CronRunStatus } from "./types.js";

type Database = BetterSqlite3.Database;

/** Run history kept per job: 7 days, and at most this many rows. */
export const RUN_RETENTION_MS = 7 * 24 * 60 * 60_000;
export const MAX_RUNS_PER_JOB = 2_000;

export interface RunQuery {
  jobId?: string;
  runId?: string;
  statuses?: CronRunStatus[];
  deliveryStatus?: CronDeliveryStatus;
  query?: string;
  limit: number;
  offset: number;
  sortDir: "asc" | "desc";
}

/**
 * Jobs and their run history in `<state>/cron/cron.sqlite`. Every change is one transaction, so
 * a job's state and the run row that explains it are never out of step, also across a SIGKILL.
 * The file is created with the first job: a gateway without jobs never loads SQLite.
 */
export class CronStore {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  private constructor(private readonly db: Database) {}

  /** Prepared once per SQL text: a store with 10,000 jobs writes often. */
  private sql(text: string): BetterSqlite3.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  static fileIn(stateDir: string): string {
    return path.join(stateDir, "cron", "cron.sqlite");
  }

  static exists(stateDir: string): boolean {
    return fs.existsSync(CronStore.fileIn(stateDir));
  }

  static async open(stateDir: string): Promise<CronStore> {
    const Database = await loadSqlite("cron");
    const file = CronStore.fileIn(stateDir);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let db: Database;
    try {
      db = new Database(file);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("busy_timeout = 2000");
      // better-sqlite3 gives each connection a 16 MB page cache; the jobs are read once at start
      // and then written a row at a time, so the OS page cache serves them as well.
      db.pragma("cache_size = -1000");
      db.exec(`
        CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS runs (
          run_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, ts INTEGER NOT NULL, status TEXT NOT NULL,
          delivery_status TEXT NOT NULL, pending INTEGER NOT NULL DEFAULT 0, json TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS runs_by_job ON runs (job_id, ts);
        CREATE INDEX IF NOT EXISTS runs_by_ts ON runs (ts);
      `);
    } catch (err) {
      throw new Error(`cron store ${file} could not be opened: ${(err as Error).message}. Move the file aside to start with no jobs.`);
    }
    return new CronStore(db);
  }

  loadJobs(): { jobs: CronJob[]; unreadable: string[] } {
    const jobs: CronJob[] = [];
    const unreadable: string[] = [];
    // Row by row: a row's text is garbage as soon as it is parsed, never all 10,000 at once.
    for (const row of this.sql("SELECT id, json FROM jobs").iterate() as IterableIterator<{ id: string; json: string }>) {
      try {
        jobs.push(JSON.parse(row.json) as CronJob);
      } catch {
        unreadable.push(row.id);
      }
    }
    return { jobs, unreadable };
  }

  saveJob(job: CronJob): void {
    this.sql("INSERT INTO jobs (id, json) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json").run(job.id, JSON.stringify(job));
  }

  saveJobs(jobs: readonly CronJob[]): void {
    const save = this.sql("INSERT INTO jobs (id, json) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json");
    this.db.transaction(() => {
      for (const job of jobs) save.run(job.id, JSON.stringify(job));
    })();
  }

  /** The job goes; its run history stays (a spent one-shot job). */
  removeJob(id: string): void {
    this.sql("DELETE FROM jobs WHERE id = ?").run(id);
  }

  deleteJob(id: string): void {
    this.db.transaction(() => {
      this.sql("DELETE FROM jobs WHERE id = ?").run(id);
      this.sql("DELETE FROM runs WHERE job_id = ?").run(id);
    })();
  }

  /** A run ended: its row and the job's new state in one transaction (the job is gone when `job` is undefined). */
  recordRun(entry: CronRunEntry, job: CronJob | undefined): void {
    this.db.transaction(() => {
      this.db
        .prepare("INSERT OR IGNORE INTO runs (run_id, job_id, ts, status, delivery_status, pending, json) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(entry.runId, entry.jobId, entry.ts, entry.status, entry.deliveryStatus, entry.pendingDelivery === undefined ? 0 : 1, JSON.stringify(entry));
      if (job) this.saveJob(job);
      else this.removeJob(entry.jobId);
    })();
  }

  hasRun(runId: string): boolean {
    return this.sql("SELECT 1 FROM runs WHERE run_id = ?").get(runId) !== undefined;
  }

  /** The delivery of a recorded run settled: the owed text is dropped from the row. */
  settleDelivery(runId: string, status: CronDeliveryStatus, error?: string): CronRunEntry | undefined {
    const row = this.sql("SELECT json FROM runs WHERE run_id = ?").get(runId) as { json: string } | undefined;
    if (!row) return undefined;
    const entry = JSON.parse(row.json) as CronRunEntry;
    delete entry.pendingDelivery;
    entry.deliveryStatus = status;
    if (error) entry.deliveryError = error;
    this.sql("UPDATE runs SET delivery_status = ?, pending = 0, json = ? WHERE run_id = ?").run(status, JSON.stringify(entry), runId);
    return entry;
  }

  /** Runs whose reply was recorded but not yet delivered (a crash came in between). */
  owedDeliveries(): CronRunEntry[] {
    return (this.sql("SELECT json FROM runs WHERE pending = 1 ORDER BY ts").all() as { json: string }[]).map((r) => JSON.parse(r.json) as CronRunEntry);
  }

  listRuns(query: RunQuery): { entries: CronRunEntry[]; total: number } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.jobId) {
      where.push("job_id = ?");
      params.push(query.jobId);
    }
    if (query.runId) {
      where.push("run_id = ?");
      params.push(query.runId);
    }
    if (query.statuses && query.statuses.length > 0) {
      where.push(`status IN (${query.statuses.map(() => "?").join(", ")})`);
      params.push(...query.statuses);
    }
    if (query.deliveryStatus) {
      where.push("delivery_status = ?");
      params.push(query.deliveryStatus);
    }
    if (query.query) {
      where.push("instr(lower(json), ?) > 0");
      params.push(query.query.toLowerCase());
    }
    const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const total = (this.sql(`SELECT count(*) AS n FROM runs ${clause}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT json FROM runs ${clause} ORDER BY ts ${query.sortDir === "asc" ? "ASC" : "DESC"}, rowid ${query.sortDir === "asc" ? "ASC" : "DESC"} LIMIT ? OFFSET ?`)
      .all(...params, query.limit, query.offset) as { json: string }[];
    return { entries: rows.map((r) => JSON.parse(r.json) as CronRunEntry), total };
  }

  /** Drops runs older than the retention window and each job's rows beyond the newest `MAX_RUNS_PER_JOB`. Returns how many went. */
  prune(now: number, jobIds: readonly string[]): number {
    let removed = 0;
    this.db.transaction(() => {
      removed += this.sql("DELETE FROM runs WHERE ts < ? AND pending = 0").run(now - RUN_RETENTION_MS).changes;
      const overflow = this.sql(
        "DELETE FROM runs WHERE job_id = ? AND pending = 0 AND rowid NOT IN (SELECT rowid FROM runs WHERE job_id = ? ORDER BY ts DESC, rowid DESC LIMIT ?)",
      );
      const known = new Set(jobIds);
      const over = this.sql("SELECT job_id AS id FROM runs GROUP BY job_id HAVING count(*) > ?").all(MAX_RUNS_PER_JOB) as { id: string }[];
      for (const { id } of over) if (known.has(id)) removed += overflow.run(id, id, MAX_RUNS_PER_JOB).changes;
    })();
    return removed;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
