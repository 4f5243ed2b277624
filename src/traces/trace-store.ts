import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { loadSqlite } from "../infra/sqlite-module.js";
import { createReviewTables, ReviewStore } from "./review/review-store.js";
import { createVectorTable, TraceVectors } from "./meaning/trace-vectors.js";
import { parseSearchQuery, snippetAround } from "../sessions/search/index.js";
import { summaryColumns } from "./summary-columns.js";
import { traceText } from "./trace-text.js";
import type { ToolCallOutline, TraceRecord, TraceSummary } from "./types.js";
import type { HistoryRows } from "./history-log.js";
import { createHistoryTables, historyStart, HistoryStore } from "./history-store.js";
import type { TracedMessage } from "./history-messages.js";

type Database = BetterSqlite3.Database;

/** A trace ready to store: its redacted record and, when the run had one, its system prompt. */
export interface StoredTrace {
  record: TraceRecord;
  systemPrompt?: { hash: string; text: string };
  /** The log entries and messages of its history the store may not have yet. */
  history?: HistoryRows;
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
 * A trace's history is in a session's message log (history-store.ts): `history_log`, `history_from`.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS prompts (hash TEXT PRIMARY KEY, text TEXT NOT NULL, bytes INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS traces (
  run_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, agent_id TEXT NOT NULL, source TEXT NOT NULL,
  started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL, outcome TEXT NOT NULL, model TEXT,
  input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, model_calls INTEGER NOT NULL, tool_calls INTEGER NOT NULL,
  prompt_hash TEXT, body TEXT NOT NULL, bytes INTEGER NOT NULL, history_log TEXT, history_from INTEGER
);
CREATE INDEX IF NOT EXISTS traces_started ON traces(started_at);
CREATE INDEX IF NOT EXISTS traces_session ON traces(session_key, started_at);
CREATE INDEX IF NOT EXISTS traces_prompt ON traces(prompt_hash);
CREATE INDEX IF NOT EXISTS traces_bytes ON traces(bytes);
`;

/**
 * `traces_fts`: each trace's text (trace-text.ts) as words, under the trace's rowid: Unicode
 * words, lowercase, without diacritics, unstemmed. Contentless (the text is rebuilt from the
 * trace for a snippet), so it adds only the word index to the file; a deleted trace's words go
 * with it (the trigger), and a rewritten one's are replaced by `write`.
 */
const SEARCH_SCHEMA = `
CREATE VIRTUAL TABLE traces_fts USING fts5(text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER traces_fts_removed AFTER DELETE ON traces BEGIN DELETE FROM traces_fts WHERE rowid = old.rowid; END;
`;

/** A trace found by `search`: its summary and a passage around the first word that matched. */
export interface TraceSearchHit extends TraceSummary {
  snippet: string;
}

export interface TraceSearchQuery {
  query: string;
  sessionKey?: string;
  since?: number;
  limit?: number;
}

const SUMMARY_COLUMNS = summaryColumns();

/** Makes the word index of a store that has none, filled from the traces it holds. */
function createSearchIndex(db: Database): void {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'traces_fts'").get()) return;
  db.transaction(() => {
    db.exec(SEARCH_SCHEMA);
    const put = db.prepare("INSERT INTO traces_fts (rowid, text) VALUES (?, ?)");
    // In pages: a statement cannot write while another one of the connection is still reading.
    const page = db.prepare("SELECT rowid, body FROM traces WHERE rowid > ? ORDER BY rowid LIMIT 200");
    for (let after = 0; ; ) {
      const rows = page.all(after) as { rowid: number; body: string }[];
      if (rows.length === 0) break;
      for (const row of rows) put.run(row.rowid, traceText(JSON.parse(row.body) as TraceRecord));
      after = rows.at(-1)!.rowid;
    }
  })();
}

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
  private readonly rowidOf;
  private readonly dropWords;
  private readonly putWords;
  private readonly history: HistoryStore;
  /** History logs no trace uses any more since `takeEmptiedLogs` was last called. */
  private emptiedLogs: string[] = [];
  /** The review queue, in the same database. */
  readonly reviews: ReviewStore;
  /** The traces' vectors for meaning search, in the same database. */
  readonly vectors: TraceVectors;

  private constructor(private readonly db: Database) {
    this.reviews = new ReviewStore(db);
    this.vectors = new TraceVectors(db);
    this.putPrompt = db.prepare("INSERT OR IGNORE INTO prompts (hash, text, bytes) VALUES (?, ?, ?)");
    this.putTrace = db.prepare(`INSERT OR REPLACE INTO traces
      (run_id, session_key, agent_id, source, started_at, duration_ms, outcome, model, input_tokens, output_tokens, model_calls, tool_calls, prompt_hash, body, bytes, history_log, history_from)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.rowidOf = db.prepare("SELECT rowid, history_log AS historyLog FROM traces WHERE run_id = ?");
    this.dropWords = db.prepare("DELETE FROM traces_fts WHERE rowid = ?");
    this.putWords = db.prepare("INSERT INTO traces_fts (rowid, text) VALUES (?, ?)");
    this.history = new HistoryStore(db);
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
      createHistoryTables(db);
      createSearchIndex(db);
      createReviewTables(db);
      createVectorTable(db);
    } catch (err) {
      db.close();
      throw new Error(`trace store ${file} cannot be opened: ${(err as Error).message}. Move the file away; a new one is made.`);
    }
    if (opts.create) fs.chmodSync(file, 0o600);
    return new TraceStore(db);
  }

  /** Writes traces in one transaction; a run written twice keeps its latest trace. */
  write(traces: readonly StoredTrace[]): void {
    const { putPrompt, putTrace, rowidOf, dropWords, putWords } = this;
    this.db.transaction(() => {
      for (const { record: r, systemPrompt, history } of traces) {
        if (systemPrompt) putPrompt.run(systemPrompt.hash, systemPrompt.text, Buffer.byteLength(systemPrompt.text));
        if (history) this.history.add(history);
        const body = JSON.stringify(r);
        const start = historyStart(r.history);
        // REPLACE deletes without firing the delete trigger: the words of a trace written again go here.
        const previous = rowidOf.get(r.runId) as { rowid: number; historyLog: string | null } | undefined;
        if (previous !== undefined) {
          dropWords.run(previous.rowid);
          this.vectors.forget(r.runId);
        }
        const { lastInsertRowid } = putTrace.run(
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
          start.log,
          start.from,
        );
        putWords.run(lastInsertRowid, traceText(r));
        // The replaced trace may have used entries no remaining trace uses.
        if (previous?.historyLog) this.emptiedLogs.push(...this.history.trim([previous.historyLog]));
      }
    })();
  }

  /**
   * Traces holding every word and "quoted phrase" of the query (any order, anywhere in the text
   * trace-text.ts builds), best match first (bm25), with a snippet; undefined when the query has
   * no word to search for.
   */
  search(query: TraceSearchQuery): TraceSearchHit[] | undefined {
    const parsed = parseSearchQuery(query.query);
    if (!parsed) return undefined;
    const where = ["traces_fts MATCH ?"];
    const params: unknown[] = [parsed.match];
    if (query.sessionKey) {
      where.push("t.session_key = ?");
      params.push(query.sessionKey);
    }
    if (query.since !== undefined) {
      where.push("t.started_at >= ?");
      params.push(query.since);
    }
    const rows = this.db
      .prepare(
        `SELECT ${summaryColumns("t")}, t.body AS body
         FROM traces_fts f JOIN traces t ON t.rowid = f.rowid WHERE ${where.join(" AND ")} ORDER BY bm25(traces_fts) LIMIT ?`,
      )
      .all(...params, query.limit ?? 20) as (TraceSummary & { model: string | null; body: string })[];
    return rows.map(({ model, body, ...row }) => ({
      ...row,
      ...(model ? { model } : {}),
      snippet: snippetAround(traceText(JSON.parse(body) as TraceRecord), parsed.words),
    }));
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

  /** A run's trace with its system prompt's text and its history's messages, in the order sent. */
  get(runId: string): { trace: TraceRecord; systemPrompt?: string; history?: TracedMessage[] } | undefined {
    const row = this.db.prepare("SELECT t.body AS body, p.text AS prompt FROM traces t LEFT JOIN prompts p ON p.hash = t.prompt_hash WHERE t.run_id = ?").get(runId) as
      | { body: string; prompt: string | null }
      | undefined;
    if (!row) return undefined;
    const trace = JSON.parse(row.body) as TraceRecord;
    const history = trace.history ? this.history.messages(trace.history) : undefined;
    return { trace, ...(row.prompt !== null ? { systemPrompt: row.prompt } : {}), ...(history ? { history } : {}) };
  }

  /** Bytes the traces, prompts and history messages hold. */
  storedBytes(): number {
    const row = this.db
      .prepare(
        "SELECT (SELECT COALESCE(SUM(bytes), 0) FROM traces) + (SELECT COALESCE(SUM(bytes), 0) FROM prompts) + (SELECT COALESCE(SUM(bytes), 0) FROM history_messages) AS total",
      )
      .get() as { total: number };
    return row.total;
  }

  /** Deletes traces older than the retention, then the oldest ones until the store fits its cap. */
  prune(limits: PruneLimits): number {
    return this.db.transaction(() => {
      const expired = this.db
        .prepare("DELETE FROM traces WHERE started_at < ? RETURNING history_log")
        .pluck()
        .all(limits.now - limits.retentionDays * 86_400_000);
      let deleted = expired.length;
      this.letGo(expired as (string | null)[]);
      let excess = this.storedBytes() - limits.maxBytes;
      if (excess > 0) {
        const oldest = this.db.prepare("SELECT run_id AS runId, bytes FROM traces ORDER BY started_at ASC").iterate() as Iterable<{ runId: string; bytes: number }>;
        const victims: string[] = [];
        for (const row of oldest) {
          victims.push(row.runId);
          excess -= row.bytes;
          if (excess <= 0) break;
        }
        const del = this.db.prepare("DELETE FROM traces WHERE run_id = ? RETURNING history_log").pluck();
        const logs = victims.flatMap((id) => del.all(id) as (string | null)[]);
        deleted += logs.length;
        this.letGo(logs);
      }
      if (deleted > 0) this.reviews.deleteOrphans();
      return deleted;
    })();
  }

  /**
   * The history logs whose every trace was deleted (retention, the cap, a trace written again)
   * since the last call: whoever numbers messages in them must start new ones.
   */
  takeEmptiedLogs(): string[] {
    const logs = this.emptiedLogs;
    this.emptiedLogs = [];
    return logs;
  }

  close(): void {
    this.db.close();
  }

  /** After traces were deleted (`historyLogs`: theirs): their logs are trimmed, then the prompts no trace uses go. */
  private letGo(historyLogs: readonly (string | null)[]): void {
    if (historyLogs.length === 0) return;
    this.emptiedLogs.push(...this.history.trim(historyLogs.filter((log) => log !== null)));
    this.db.exec("DELETE FROM prompts WHERE hash NOT IN (SELECT prompt_hash FROM traces WHERE prompt_hash IS NOT NULL)");
  }
}
