import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { loadSqlite } from "../infra/sqlite-module.js";
import { createReviewTables, ReviewStore } from "./review/review-store.js";
import type { ToolCallOutline, TraceRecord, TraceSummary } from "./types.js";

type Database = BetterSqlite3.Database;

/** A trace ready to store: its redacted record and, when the run had one, its system prompt. */
export interface StoredTrace {
  record: TraceRecord;
  systemPrompt?: { hash: string; text: string };
}

export interface TraceQuery {
  sessionKey?: string;
  agentId?: string;
  runId?: string;
  /** Only runs that started at or after this time (ms since the epoch). */
  since?: number;
  limit?: number;
}

export interface PruneLimits {
  retentionDays: number;
  maxBytes: number;
  now: number;
}

/**
 * `traces_prompt` and `traces_bytes` serve retention: which prompts are still used and how many
 * bytes are stored are read from those small indexes, not from every row and its overflow pages.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS prompts (hash TEXT PRIMARY KEY, text TEXT NOT NULL, bytes INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS traces (
  run_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, agent_id TEXT NOT NULL, source TEXT NOT NULL,
  started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL, outcome TEXT NOT NULL, model TEXT,
  input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, model_calls INTEGER NOT NULL, tool_calls INTEGER NOT NULL,
  prompt_hash TEXT, body TEXT NOT NULL, bytes INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS traces_started ON traces(started_at);
CREATE INDEX IF NOT EXISTS traces_session ON traces(session_key, started_at);
CREATE INDEX IF NOT EXISTS traces_prompt ON traces(prompt_hash);
CREATE INDEX IF NOT EXISTS traces_bytes ON traces(bytes);
`;

const SUMMARY_COLUMNS = `run_id AS runId, session_key AS sessionKey, agent_id AS agentId, source, started_at AS startedAt,
  duration_ms AS durationMs, outcome, model, input_tokens AS inputTokens, output_tokens AS outputTokens,
  model_calls AS modelCalls, tool_calls AS toolCalls`;

/** The trace database of a state dir. */
export function tracesDbPath(stateDir: string): string {
  return path.join(stateDir, "traces", "traces.sqlite");
}

/**
 * Run traces in SQLite (`<state>/traces/traces.sqlite`): one row per run with its summary
 * columns and the full trace as JSON, and each distinct system prompt once, by its hash.
 */
export class TraceStore {
  private readonly putPrompt;
  private readonly putTrace;
  /** The review queue, in the same database. */
  readonly reviews: ReviewStore;

  private constructor(private readonly db: Database) {
    this.reviews = new ReviewStore(db);
    this.putPrompt = db.prepare("INSERT OR IGNORE INTO prompts (hash, text, bytes) VALUES (?, ?, ?)");
    this.putTrace = db.prepare(`INSERT OR REPLACE INTO traces
      (run_id, session_key, agent_id, source, started_at, duration_ms, outcome, model, input_tokens, output_tokens, model_calls, tool_calls, prompt_hash, body, bytes)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  /** Opens (creating when `create`) the store; undefined when it does not exist and `create` is false. */
  static async open(file: string, opts: { create: boolean }): Promise<TraceStore | undefined> {
    if (!opts.create && !fs.existsSync(file)) return undefined;
    const Sqlite = await loadSqlite("traces");
    if (opts.create) fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const db = new Sqlite(file, opts.create ? {} : { fileMustExist: true });
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("busy_timeout = 2000");
      // better-sqlite3 defaults to a 16 MB page cache per connection, which retention's scans
      // filled for good: traces are written far more than read, and the OS caches the file anyway.
      db.pragma("cache_size = -2000");
      db.exec(SCHEMA);
      createReviewTables(db);
    } catch (err) {
      db.close();
      throw new Error(`trace store ${file} cannot be opened: ${(err as Error).message}. Move the file away; a new one is made.`);
    }
    if (opts.create) fs.chmodSync(file, 0o600);
    return new TraceStore(db);
  }

  /** Writes traces in one transaction; a run written twice keeps its latest trace. */
  write(traces: readonly StoredTrace[]): void {
    const { putPrompt, putTrace } = this;
    this.db.transaction(() => {
      for (const { record: r, systemPrompt } of traces) {
        if (systemPrompt) putPrompt.run(systemPrompt.hash, systemPrompt.text, Buffer.byteLength(systemPrompt.text));
        const body = JSON.stringify(r);
        putTrace.run(
          r.runId,
          r.sessionKey,
          r.agentId,
          r.source,
          r.startedAt,
          r.durationMs,
          r.outcome,
          r.model ?? null,
          r.usage.input,
          r.usage.output,
          r.modelCalls.length,
          r.toolCalls.length,
          r.systemPromptHash ?? null,
          body,
          Buffer.byteLength(body),
        );
      }
    })();
  }

  /** Newest first. */
  list(query: TraceQuery = {}): TraceSummary[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.sessionKey) {
      where.push("session_key = ?");
      params.push(query.sessionKey);
    }
    if (query.agentId) {
      where.push("agent_id = ?");
      params.push(query.agentId);
    }
    if (query.runId) {
      where.push("run_id = ?");
      params.push(query.runId);
    }
    if (query.since !== undefined) {
      where.push("started_at >= ?");
      params.push(query.since);
    }
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM traces ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY started_at DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, query.limit ?? 50) as (TraceSummary & { model: string | null })[];
    return rows.map(({ model, ...row }) => (model ? { ...row, model } : row));
  }

  /** A run's tool calls in the order they started, without arguments or results (read inside SQLite, not parsed whole). */
  toolCallOutlines(runId: string): ToolCallOutline[] {
    const rows = this.db
      .prepare(
        `SELECT json_extract(j.value, '$.id') AS id, json_extract(j.value, '$.name') AS name, json_extract(j.value, '$.startedAt') AS startedAt,
           json_extract(j.value, '$.durationMs') AS durationMs, json_extract(j.value, '$.isError') AS isError, json_extract(j.value, '$.decision') AS decision
         FROM traces t, json_each(t.body, '$.toolCalls') j WHERE t.run_id = ? ORDER BY j.key`,
      )
      .all(runId) as { id: string; name: string; startedAt: number; durationMs: number | null; isError: number | null; decision: ToolCallOutline["decision"] }[];
    return rows.map(({ durationMs, isError, ...row }) => ({ ...row, ...(durationMs !== null ? { durationMs } : {}), ...(isError ? { isError: true } : {}) }));
  }

  /** Whether a trace of the run is stored. */
  has(runId: string): boolean {
    return this.db.prepare("SELECT 1 FROM traces WHERE run_id = ?").get(runId) !== undefined;
  }

  /** A run's trace with its system prompt's text. */
  get(runId: string): { trace: TraceRecord; systemPrompt?: string } | undefined {
    const row = this.db.prepare("SELECT t.body AS body, p.text AS prompt FROM traces t LEFT JOIN prompts p ON p.hash = t.prompt_hash WHERE t.run_id = ?").get(runId) as
      | { body: string; prompt: string | null }
      | undefined;
    if (!row) return undefined;
    return { trace: JSON.parse(row.body) as TraceRecord, ...(row.prompt !== null ? { systemPrompt: row.prompt } : {}) };
  }

  /** Bytes the traces and prompts hold. */
  storedBytes(): number {
    const row = this.db.prepare("SELECT (SELECT COALESCE(SUM(bytes), 0) FROM traces) + (SELECT COALESCE(SUM(bytes), 0) FROM prompts) AS total").get() as { total: number };
    return row.total;
  }

  /** Deletes traces older than the retention, then the oldest ones until the store fits its cap. */
  prune(limits: PruneLimits): number {
    return this.db.transaction(() => {
      let deleted = this.db.prepare("DELETE FROM traces WHERE started_at < ?").run(limits.now - limits.retentionDays * 86_400_000).changes;
      this.deleteUnusedPrompts();
      let excess = this.storedBytes() - limits.maxBytes;
      if (excess > 0) {
        const oldest = this.db.prepare("SELECT run_id AS runId, bytes FROM traces ORDER BY started_at ASC").iterate() as Iterable<{ runId: string; bytes: number }>;
        const victims: string[] = [];
        for (const row of oldest) {
          victims.push(row.runId);
          excess -= row.bytes;
          if (excess <= 0) break;
        }
        const del = this.db.prepare("DELETE FROM traces WHERE run_id = ?");
        for (const id of victims) deleted += del.run(id).changes;
        this.deleteUnusedPrompts();
      }
      if (deleted > 0) this.reviews.deleteOrphans();
      return deleted;
    })();
  }

  close(): void {
    this.db.close();
  }

  private deleteUnusedPrompts(): void {
    this.db.exec("DELETE FROM prompts WHERE hash NOT IN (SELECT prompt_hash FROM traces WHERE prompt_hash IS NOT NULL)");
  }
}
