import type BetterSqlite3 from "better-sqlite3";
import { summaryColumns } from "../summary-columns.js";
import type { TraceRecord, TraceSummary } from "../types.js";

type Database = BetterSqlite3.Database;

/**
 * One vector per trace, of the embedder named by `embedder` (a trace embedded by another model
 * is embedded again). A deleted trace's vector goes with it (trigger); a rewritten one's is
 * dropped by the writer, so it is embedded again.
 */
const VECTORS_SCHEMA = `
CREATE TABLE IF NOT EXISTS trace_vectors (run_id TEXT PRIMARY KEY, embedder TEXT NOT NULL, vector BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS trace_vectors_gone AFTER DELETE ON traces BEGIN DELETE FROM trace_vectors WHERE run_id = old.run_id; END;
`;

export function createVectorTable(db: Database): void {
  db.exec(VECTORS_SCHEMA);
}

/** A trace waiting for its vector. */
export interface UnembeddedTrace {
  runId: string;
  record: TraceRecord;
}

export interface MeaningQuery {
  sessionKey?: string;
  since?: number;
  limit: number;
}

/** The vectors of the traces' meaning search (docs/traces.md#searching-by-meaning). */
export class TraceVectors {
  private readonly forgetOne;

  constructor(private readonly db: Database) {
    this.forgetOne = db.prepare("DELETE FROM trace_vectors WHERE run_id = ?");
  }

  /** Newest first, up to `limit` traces with no vector from `embedder`. */
  unembedded(embedder: string, limit: number): UnembeddedTrace[] {
    const rows = this.db
      .prepare(
        `SELECT t.run_id AS runId, t.body FROM traces t LEFT JOIN trace_vectors v ON v.run_id = t.run_id AND v.embedder = ?
         WHERE v.run_id IS NULL ORDER BY t.started_at DESC LIMIT ?`,
      )
      .all(embedder, limit) as { runId: string; body: string }[];
    return rows.map((row) => ({ runId: row.runId, record: JSON.parse(row.body) as TraceRecord }));
  }

  /** Stores a trace's vector, unless the trace is gone meanwhile. */
  put(runId: string, embedder: string, vector: Float32Array): void {
    this.db
      .prepare("INSERT OR REPLACE INTO trace_vectors (run_id, embedder, vector) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM traces WHERE run_id = ?)")
      .run(runId, embedder, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), runId);
  }

  forget(runId: string): void {
    this.forgetOne.run(runId);
  }

  /** How many traces there are, and how many have a vector from `embedder` (not counting refused texts' empty ones). */
  coverage(embedder: string): { embedded: number; traces: number } {
    return this.db
      .prepare("SELECT (SELECT COUNT(*) FROM trace_vectors WHERE embedder = ? AND length(vector) > 0) AS embedded, (SELECT COUNT(*) FROM traces) AS traces")
      .get(embedder) as {
      embedded: number;
      traces: number;
    };
  }

  /**
   * The traces whose vectors are nearest `query` (cosine; the vectors are compared as stored, one
   * row at a time, so memory stays flat however many traces there are), best first, with the score.
   */
  nearest(embedder: string, query: Float32Array, filter: MeaningQuery): (TraceSummary & { score: number; record: TraceRecord })[] {
    const where = ["v.embedder = ?"];
    const params: unknown[] = [embedder];
    if (filter.sessionKey) {
      where.push("t.session_key = ?");
      params.push(filter.sessionKey);
    }
    if (filter.since !== undefined) {
      where.push("t.started_at >= ?");
      params.push(filter.since);
    }
    const queryNorm = norm(query);
    const best: { runId: string; score: number }[] = [];
    const rows = this.db.prepare(`SELECT v.run_id AS runId, v.vector FROM trace_vectors v JOIN traces t ON t.run_id = v.run_id WHERE ${where.join(" AND ")}`).iterate(...params);
    for (const row of rows as Iterable<{ runId: string; vector: Buffer }>) {
      const vector = floats(row.vector);
      if (vector.length !== query.length) continue;
      const score = dot(vector, query) / (norm(vector) * queryNorm || 1);
      if (best.length < filter.limit || score > best[best.length - 1]!.score) {
        best.push({ runId: row.runId, score });
        best.sort((a, b) => b.score - a.score);
        if (best.length > filter.limit) best.pop();
      }
    }
    const summary = this.db.prepare(`SELECT ${summaryColumns("t")}, t.body AS body FROM traces t WHERE t.run_id = ?`);
    return best.flatMap(({ runId, score }) => {
      const row = summary.get(runId) as (TraceSummary & { model: string | null; body: string }) | undefined;
      if (!row) return [];
      const { model, body, ...rest } = row;
      return [{ ...rest, ...(model ? { model } : {}), score, record: JSON.parse(body) as TraceRecord }];
    });
  }
}

/** The blob's floats, copied when SQLite's buffer does not start on a 4-byte boundary. */
function floats(blob: Buffer): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(new Uint8Array(blob).buffer);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i]! * b[i]!;
  return sum;
}

function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}
