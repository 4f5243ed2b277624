import type BetterSqlite3 from "better-sqlite3";
import type { HistoryRows } from "./history-chains.js";
import type { TracedMessage } from "./history-messages.js";

type Database = BetterSqlite3.Database;

/**
 * `history_nodes`: the places of stored conversations (history-chains.ts), each counting what
 * holds it (`refs`: the traces whose history ends there, and the places right after it).
 * `history_messages`: each message once per hash, counting the places that name it. A place held
 * by nothing is deleted, which lets go of its message and of the place before it, and so on up the
 * chain: retention's work is proportional to what it deletes, however many traces remain.
 */
const HISTORY_SCHEMA = `
CREATE TABLE IF NOT EXISTS history_nodes (node TEXT PRIMARY KEY, parent TEXT, message TEXT NOT NULL, refs INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS history_messages (hash TEXT PRIMARY KEY, body TEXT NOT NULL, bytes INTEGER NOT NULL, refs INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS history_messages_bytes ON history_messages(bytes);
`;

/** Creates the history tables, and the traces' `history_tip` column in a store made before them. */
export function createHistoryTables(db: Database): void {
  db.exec(HISTORY_SCHEMA);
  const columns = db.prepare("SELECT name FROM pragma_table_info('traces')").pluck().all() as string[];
  if (!columns.includes("history_tip")) db.exec("ALTER TABLE traces ADD COLUMN history_tip TEXT");
}

/** The stored conversations traces name by their last place. Called inside the trace store's transactions. */
export class HistoryStore {
  private readonly putMessage;
  private readonly holdMessage;
  private readonly putNode;
  private readonly holdNode;
  private readonly releaseNode;
  private readonly releaseMessage;
  private readonly deleteNode;
  private readonly deleteMessage;
  private readonly chain;

  constructor(db: Database) {
    this.putMessage = db.prepare("INSERT OR IGNORE INTO history_messages (hash, body, bytes, refs) VALUES (?, ?, ?, 0)");
    this.holdMessage = db.prepare("UPDATE history_messages SET refs = refs + 1 WHERE hash = ?");
    this.putNode = db.prepare("INSERT OR IGNORE INTO history_nodes (node, parent, message, refs) VALUES (?, ?, ?, 0)");
    this.holdNode = db.prepare("UPDATE history_nodes SET refs = refs + 1 WHERE node = ?");
    this.releaseNode = db.prepare("UPDATE history_nodes SET refs = refs - 1 WHERE node = ? RETURNING refs, parent, message");
    this.releaseMessage = db.prepare("UPDATE history_messages SET refs = refs - 1 WHERE hash = ? RETURNING refs");
    this.deleteNode = db.prepare("DELETE FROM history_nodes WHERE node = ?");
    this.deleteMessage = db.prepare("DELETE FROM history_messages WHERE hash = ?");
    this.chain = db
      .prepare(
        `WITH RECURSIVE chain (node, parent, message, depth) AS (
           SELECT node, parent, message, 0 FROM history_nodes WHERE node = ?
           UNION ALL SELECT n.node, n.parent, n.message, c.depth + 1 FROM history_nodes n JOIN chain c ON n.node = c.parent
         )
         SELECT m.body FROM chain c JOIN history_messages m ON m.hash = c.message ORDER BY c.depth DESC`,
      )
      .pluck();
  }

  /** Adds the places and messages a trace's history may bring (those already stored are left as they are). */
  add(rows: HistoryRows): void {
    for (const m of rows.messages) this.putMessage.run(m.hash, m.body, Buffer.byteLength(m.body));
    for (const n of rows.nodes) {
      if (this.putNode.run(n.node, n.parent, n.message).changes === 0) continue;
      this.holdMessage.run(n.message);
      if (n.parent !== null) this.holdNode.run(n.parent);
    }
  }

  /** A trace now ends its history at `tip`. */
  hold(tip: string): void {
    this.holdNode.run(tip);
  }

  /** A trace that ended its history at `tip` is gone: places held by nothing any more are deleted, up the chain. */
  release(tip: string): void {
    for (let node: string | null = tip; node !== null; ) {
      const left = this.releaseNode.get(node) as { refs: number; parent: string | null; message: string } | undefined;
      if (!left || left.refs > 0) return;
      this.deleteNode.run(node);
      const message = this.releaseMessage.get(left.message) as { refs: number } | undefined;
      if (message && message.refs <= 0) this.deleteMessage.run(left.message);
      node = left.parent;
    }
  }

  /** The messages of the conversation ending at `tip`, first to last. */
  messages(tip: string): TracedMessage[] {
    return (this.chain.all(tip) as string[]).map((body) => JSON.parse(body) as TracedMessage);
  }
}
