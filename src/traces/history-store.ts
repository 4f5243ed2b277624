import type BetterSqlite3 from "better-sqlite3";
import type { HistoryRows } from "./history-log.js";
import type { TracedMessage } from "./history-messages.js";
import type { TraceHistory } from "./types.js";

type Database = BetterSqlite3.Database;

/**
 * `history_log`: each session log's messages by number (history-log.ts), as message hashes.
 * `history_messages`: each message once per hash, counting the log entries that name it.
 * `traces.history_log` / `history_from`: the log a trace's history is in and the lowest number it
 * uses, so retention keeps a log's entries from the lowest number any remaining trace uses.
 */
const HISTORY_SCHEMA = `
CREATE TABLE IF NOT EXISTS history_log (log TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (log, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history_messages (hash TEXT PRIMARY KEY, body TEXT NOT NULL, bytes INTEGER NOT NULL, refs INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS history_messages_bytes ON history_messages(bytes);
`;

/** Creates the history tables, and the traces' history columns in a store made before them. */
export function createHistoryTables(db: Database): void {
  db.exec(HISTORY_SCHEMA);
  const columns = db.prepare("SELECT name FROM pragma_table_info('traces')").pluck().all() as string[];
  if (!columns.includes("history_log")) db.exec("ALTER TABLE traces ADD COLUMN history_log TEXT");
  if (!columns.includes("history_from")) db.exec("ALTER TABLE traces ADD COLUMN history_from INTEGER");
  db.exec("CREATE INDEX IF NOT EXISTS traces_history ON traces(history_log, history_from)");
}

/** Where a trace's history starts in its log: what the traces table keeps of it. */
export function historyStart(history: TraceHistory | undefined): { log: string | null; from: number | null } {
  if (!history?.log || !history.runs?.length) return { log: null, from: null };
  return { log: history.log, from: Math.min(...history.runs.map(([first]) => first)) };
}

/** The stored session logs and messages traces name their histories by. Called inside the trace store's transactions. */
export class HistoryStore {
  private readonly putMessage;
  private readonly holdMessage;
  private readonly putEntry;
  private readonly releaseMessage;
  private readonly deleteMessage;
  private readonly lowestUsed;
  private readonly trimLog;
  private readonly range;

  constructor(db: Database) {
    this.putMessage = db.prepare("INSERT OR IGNORE INTO history_messages (hash, body, bytes, refs) VALUES (?, ?, ?, 0)");
    this.holdMessage = db.prepare("UPDATE history_messages SET refs = refs + 1 WHERE hash = ?");
    this.putEntry = db.prepare("INSERT OR IGNORE INTO history_log (log, seq, message) VALUES (?, ?, ?)");
    this.releaseMessage = db.prepare("UPDATE history_messages SET refs = refs - 1 WHERE hash = ? RETURNING refs");
    this.deleteMessage = db.prepare("DELETE FROM history_messages WHERE hash = ?");
    this.lowestUsed = db.prepare("SELECT MIN(history_from) FROM traces WHERE history_log = ?").pluck();
    this.trimLog = db.prepare("DELETE FROM history_log WHERE log = ? AND seq < ? RETURNING message").pluck();
    this.range = db.prepare("SELECT m.body FROM history_log l JOIN history_messages m ON m.hash = l.message WHERE l.log = ? AND l.seq BETWEEN ? AND ? ORDER BY l.seq").pluck();
  }

  /** Adds the log entries and messages a trace's history may bring (those already stored are left as they are). */
  add(rows: HistoryRows): void {
    for (const m of rows.messages) this.putMessage.run(m.hash, m.body, Buffer.byteLength(m.body));
    for (const e of rows.entries) if (this.putEntry.run(e.log, e.seq, e.message).changes > 0) this.holdMessage.run(e.message);
  }

  /**
   * Traces in `logs` were deleted: each log loses the entries below the lowest number a remaining
   * trace uses (all of them when none remains), and messages no entry names any more go. Returns
   * the logs no trace uses any more (emptied).
   */
  trim(logs: Iterable<string>): string[] {
    const emptied: string[] = [];
    for (const log of new Set(logs)) {
      const lowest = this.lowestUsed.get(log) as number | null;
      if (lowest === null) emptied.push(log);
      for (const hash of this.trimLog.all(log, lowest ?? Number.MAX_SAFE_INTEGER) as string[]) {
        const left = this.releaseMessage.get(hash) as { refs: number } | undefined;
        if (left && left.refs <= 0) this.deleteMessage.run(hash);
      }
    }
    return emptied;
  }

  /** The messages of a trace's history, in the order sent. */
  messages(history: TraceHistory): TracedMessage[] {
    if (!history.log || !history.runs) return [];
    const out: TracedMessage[] = [];
    for (const [from, to] of history.runs) for (const body of this.range.all(history.log, from, to) as string[]) out.push(JSON.parse(body) as TracedMessage);
    return out;
  }
}
