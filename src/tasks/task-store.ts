import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { loadSqlite } from "../infra/sqlite-module.js";
import {
  TASK_ERROR_MAX_CHARS,
  TASK_LABEL_MAX_CHARS,
  TASK_SUMMARY_MAX_CHARS,
  TASK_TEXT_MAX_CHARS,
  type TaskEnd,
  type TaskRecord,
  type TaskRuntime,
  type TaskStart,
  type TaskStatus,
} from "./types.js";

type Database = BetterSqlite3.Database;

/** How long an ended task is kept: 7 days, a `lost` one 24 hours. */
export const TASK_RETENTION_MS = 7 * 24 * 60 * 60_000;
export const LOST_TASK_RETENTION_MS = 24 * 60 * 60_000;
/** Ended tasks kept at most, however recent (the oldest go first); unfinished ones are never pruned. */
export const MAX_ENDED_TASKS = 5_000;

export interface TaskQuery {
  runtime?: TaskRuntime;
  statuses?: readonly TaskStatus[];
  agentId?: string;
  /** Tasks this session started or runs in. */
  sessionKey?: string;
  limit: number;
}

const COLUMNS = `task_id AS taskId, runtime, status, run_id AS runId, agent_id AS agentId, requester_session_key AS requesterSessionKey,
  child_session_key AS childSessionKey, source_id AS sourceId, label, task, created_at AS createdAt, started_at AS startedAt,
  ended_at AS endedAt, last_event_at AS lastEventAt, cleanup_after AS cleanupAfter, error, terminal_summary AS terminalSummary`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY, runtime TEXT NOT NULL, status TEXT NOT NULL, run_id TEXT NOT NULL UNIQUE, agent_id TEXT NOT NULL,
  requester_session_key TEXT, child_session_key TEXT, source_id TEXT, label TEXT, task TEXT NOT NULL,
  created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER, last_event_at INTEGER NOT NULL, cleanup_after INTEGER,
  error TEXT, terminal_summary TEXT
);
CREATE INDEX IF NOT EXISTS tasks_created ON tasks(created_at);
CREATE INDEX IF NOT EXISTS tasks_child ON tasks(child_session_key, created_at);
CREATE INDEX IF NOT EXISTS tasks_requester ON tasks(requester_session_key, created_at);
CREATE INDEX IF NOT EXISTS tasks_cleanup ON tasks(cleanup_after);
`;

/**
 * The background task ledger in SQLite (`<state>/tasks/tasks.sqlite`): one row per task. A task
 * that ended is final: a later end (the run's own, after an operator's cancel) changes nothing.
 */
export class TaskStore {
  /** The statements every recorded run uses, prepared once per store. */
  private readonly insertTask;
  private readonly endTask;
  private readonly byTaskIdQuery;
  private readonly byRunIdQuery;
  private readonly byChildSessionQuery;

  private constructor(private readonly db: Database) {
    this.insertTask = db.prepare(
      `INSERT OR IGNORE INTO tasks (task_id, runtime, status, run_id, agent_id, requester_session_key, child_session_key, source_id, label, task, created_at, started_at, last_event_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.endTask = db.prepare(
      `UPDATE tasks SET status = ?, ended_at = ?, last_event_at = ?, cleanup_after = ?, error = ?, terminal_summary = ?,
         child_session_key = COALESCE(child_session_key, ?)
       WHERE run_id = ? AND status IN ('queued', 'running')`,
    );
    this.byTaskIdQuery = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE task_id = ?`);
    this.byRunIdQuery = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE run_id = ?`);
    this.byChildSessionQuery = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE child_session_key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`);
  }

  static fileIn(stateDir: string): string {
    return path.join(stateDir, "tasks", "tasks.sqlite");
  }

  static async open(file: string): Promise<TaskStore> {
    const Sqlite = await loadSqlite("tasks");
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const db = new Sqlite(file);
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("busy_timeout = 2000");
      db.pragma("cache_size = -1000");
      db.exec(SCHEMA);
    } catch (err) {
      db.close();
      throw new Error(`task ledger ${file} cannot be opened: ${(err as Error).message}. Move the file away; a new one is made.`);
    }
    fs.chmodSync(file, 0o600);
    return new TaskStore(db);
  }

  /** Records a task; a run id recorded before keeps its task (a restarted spawn is not a second task). True when this call recorded it. */
  insert(taskId: string, start: TaskStart, now: number): boolean {
    const status = start.status ?? "running";
    return (
      this.insertTask.run(
        taskId,
        start.runtime,
        status,
        start.runId,
        start.agentId,
        start.requesterSessionKey ?? null,
        start.childSessionKey ?? null,
        start.sourceId ?? null,
        start.label ? bounded(start.label, TASK_LABEL_MAX_CHARS) : null,
        bounded(start.task, TASK_TEXT_MAX_CHARS),
        now,
        status === "running" ? now : null,
        now,
      ).changes > 0
    );
  }

  /** Ends the task of `runId` unless it already ended; true when this call ended it. */
  end(runId: string, end: TaskEnd, now: number): boolean {
    const retention = end.status === "lost" ? LOST_TASK_RETENTION_MS : TASK_RETENTION_MS;
    const changed = this.endTask.run(
      end.status,
      now,
      now,
      now + retention,
      end.error ? bounded(end.error, TASK_ERROR_MAX_CHARS) : null,
      end.summary ? bounded(end.summary, TASK_SUMMARY_MAX_CHARS) : null,
      end.childSessionKey ?? null,
      runId,
    ).changes;
    return changed > 0;
  }

  /** Tasks still queued or running when the last process stopped: nothing runs them now. Returns how many. */
  markUnfinishedLost(now: number, error: string): number {
    return this.db
      .prepare(`UPDATE tasks SET status = 'lost', ended_at = ?, last_event_at = ?, cleanup_after = ?, error = ? WHERE status IN ('queued', 'running')`)
      .run(now, now, now + LOST_TASK_RETENTION_MS, bounded(error, TASK_ERROR_MAX_CHARS)).changes;
  }

  /** The task of `runId`. */
  byRunId(runId: string): TaskRecord | undefined {
    const row = this.byRunIdQuery.get(runId);
    return row ? fromRow(row as Row) : undefined;
  }

  /** A task by its task id, its run id, or the session it runs in (the newest there). */
  lookup(token: string): TaskRecord | undefined {
    const row = this.byTaskIdQuery.get(token) ?? this.byRunIdQuery.get(token) ?? this.byChildSessionQuery.get(token);
    return row ? fromRow(row as Row) : undefined;
  }

  /** Newest first. */
  list(query: TaskQuery): TaskRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.runtime) {
      where.push("runtime = ?");
      params.push(query.runtime);
    }
    if (query.statuses && query.statuses.length > 0) {
      where.push(`status IN (${query.statuses.map(() => "?").join(", ")})`);
      params.push(...query.statuses);
    }
    if (query.agentId) {
      where.push("agent_id = ?");
      params.push(query.agentId);
    }
    if (query.sessionKey) {
      where.push("(requester_session_key = ? OR child_session_key = ?)");
      params.push(query.sessionKey, query.sessionKey);
    }
    const sql = `SELECT ${COLUMNS} FROM tasks ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...params, query.limit) as Row[]).map(fromRow);
  }

  /** Deletes ended tasks past their retention, then the oldest ended ones beyond MAX_ENDED_TASKS. Returns the deleted task ids. */
  prune(now: number, maxEnded = MAX_ENDED_TASKS): string[] {
    return this.db.transaction(() => {
      const expired = this.db.prepare("DELETE FROM tasks WHERE cleanup_after IS NOT NULL AND cleanup_after <= ? RETURNING task_id AS taskId").all(now);
      const overCap = this.db
        .prepare(
          `DELETE FROM tasks WHERE task_id IN (SELECT task_id FROM tasks WHERE ended_at IS NOT NULL ORDER BY ended_at DESC, rowid DESC LIMIT -1 OFFSET ?) RETURNING task_id AS taskId`,
        )
        .all(maxEnded);
      return [...expired, ...overCap].map((row) => (row as { taskId: string }).taskId);
    })();
  }

  close(): void {
    this.db.close();
  }
}

type Row = { [K in keyof TaskRecord]-?: TaskRecord[K] | null };

function fromRow(row: Row): TaskRecord {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (value !== null) record[key] = value;
  return record as unknown as TaskRecord;
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
