import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { ensurePrivateDir } from "../../infra/paths.js";
import { loadSqlite } from "../../infra/sqlite-module.js";

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/** Bumped when the tables change: an index of another version is dropped and built again. */
const SCHEMA_VERSION = 1;

/**
 * `transcripts`: one row per session whose live transcript is indexed — which file (and which
 * inode: `file_id`), how many of its bytes (`indexed_bytes`, always a line end) and how many
 * messages `sessions_history` shows among them (`shown`). `messages`: the user and assistant text
 * of those messages, each with its place among the shown ones (`position`, from 0). `messages_fts`
 * indexes `messages.text` (external content, kept in step by the triggers): Unicode words,
 * lowercase, without diacritics, unstemmed — an exact-word search.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS transcripts (
  id INTEGER PRIMARY KEY, session_key TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL, file TEXT NOT NULL,
  file_id TEXT NOT NULL, indexed_bytes INTEGER NOT NULL, shown INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY, transcript_id INTEGER NOT NULL, entry_id TEXT NOT NULL, position INTEGER NOT NULL,
  role TEXT NOT NULL, at INTEGER NOT NULL, text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_position ON messages(transcript_id, position);
CREATE INDEX IF NOT EXISTS messages_entry ON messages(transcript_id, entry_id);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
  text, content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS messages_added AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS messages_removed AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
`;

export interface IndexedTranscript {
  id: number;
  sessionKey: string;
  sessionId: string;
  file: string;
  /** `<dev>:<ino>` of the file indexed: another file at the same path (a rotation) is indexed afresh. */
  fileId: string;
  indexedBytes: number;
  shown: number;
}

/** One step of a transcript, in file order: a message to index, or a withdrawal of one. */
export type IndexStep = { kind: "message"; entryId: string; role: string; at: number; text: string } | { kind: "withdraw"; entryId: string };

export interface MatchRow {
  transcriptId: number;
  entryId: string;
  position: number;
  role: string;
  at: number;
  text: string;
  /** bm25: lower is better. */
  rank: number;
}

const TRANSCRIPT_COLUMNS = "id, session_key AS sessionKey, session_id AS sessionId, file, file_id AS fileId, indexed_bytes AS indexedBytes, shown";

/** The SQLite side of the session search index (`<state>/sessions-search/index.sqlite`). */
export class SearchIndexDb {
  private readonly statements = new Map<string, Statement>();

  private constructor(private readonly db: Database) {}

  /**
   * Opens the index, creating it (directory 0700, file 0600). The index is a cache of the
   * transcripts: a file SQLite cannot read, or one of another schema version, is replaced by an
   * empty index, which the next searches fill again.
   */
  static async open(file: string, onWarning: (message: string) => void): Promise<SearchIndexDb> {
    const Sqlite = await loadSqlite("session search");
    ensurePrivateDir(path.dirname(file));
    try {
      return new SearchIndexDb(openDb(Sqlite, file));
    } catch (err) {
      onWarning(`session search index ${file} is unreadable (${(err as Error).message}); starting an empty one`);
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
      return new SearchIndexDb(openDb(Sqlite, file));
    }
  }

  transcripts(): IndexedTranscript[] {
    return this.sql(`SELECT ${TRANSCRIPT_COLUMNS} FROM transcripts`).all() as IndexedTranscript[];
  }

  /** A fresh row for `sessionKey`'s transcript, nothing of it indexed yet; any earlier row of the key goes first. */
  start(sessionKey: string, sessionId: string, file: string, fileId: string): IndexedTranscript {
    return this.db.transaction(() => {
      const earlier = this.sql("SELECT id FROM transcripts WHERE session_key = ?").get(sessionKey) as { id: number } | undefined;
      if (earlier) this.dropNow(earlier.id);
      const id = Number(
        this.sql("INSERT INTO transcripts (session_key, session_id, file, file_id, indexed_bytes, shown) VALUES (?, ?, ?, ?, 0, 0)").run(sessionKey, sessionId, file, fileId)
          .lastInsertRowid,
      );
      return { id, sessionKey, sessionId, file, fileId, indexedBytes: 0, shown: 0 };
    })();
  }

  /** Removes a transcript's row and every message of it. */
  drop(transcriptId: number): void {
    this.db.transaction(() => this.dropNow(transcriptId))();
  }

  /**
   * Applies `steps` (read from the transcript up to byte `indexedBytes`) in one transaction, so a
   * crash never leaves half a slice: a message gets the next position; a withdrawal removes the
   * messages with that entry id and moves the later ones up. `transcript` is updated to match.
   */
  apply(transcript: IndexedTranscript, steps: readonly IndexStep[], indexedBytes: number): void {
    let shown = transcript.shown;
    this.db.transaction(() => {
      for (const step of steps) {
        if (step.kind === "message") {
          this.sql("INSERT INTO messages (transcript_id, entry_id, position, role, at, text) VALUES (?, ?, ?, ?, ?, ?)").run(
            transcript.id,
            step.entryId,
            shown,
            step.role,
            step.at,
            step.text,
          );
          shown += 1;
          continue;
        }
        const withdrawn = this.sql("SELECT id, position FROM messages WHERE transcript_id = ? AND entry_id = ? ORDER BY position DESC").all(transcript.id, step.entryId) as {
          id: number;
          position: number;
        }[];
        for (const row of withdrawn) {
          this.sql("DELETE FROM messages WHERE id = ?").run(row.id);
          this.sql("UPDATE messages SET position = position - 1 WHERE transcript_id = ? AND position > ?").run(transcript.id, row.position);
          shown -= 1;
        }
      }
      this.sql("UPDATE transcripts SET indexed_bytes = ?, shown = ? WHERE id = ?").run(indexedBytes, shown, transcript.id);
    })();
    transcript.indexedBytes = indexedBytes;
    transcript.shown = shown;
  }

  /** The best `limit` messages of the given transcripts that match `match` (an FTS5 expression), best first, newer first among equals. */
  search(match: string, transcriptIds: readonly number[], limit: number): MatchRow[] {
    if (transcriptIds.length === 0) return [];
    return this.sql(
      `SELECT m.transcript_id AS transcriptId, m.entry_id AS entryId, m.position, m.role, m.at, m.text, bm25(messages_fts) AS rank
       FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
       WHERE messages_fts MATCH ? AND m.transcript_id IN (SELECT value FROM json_each(?))
       ORDER BY rank, m.at DESC LIMIT ?`,
    ).all(match, JSON.stringify(transcriptIds), limit) as MatchRow[];
  }

  close(): void {
    this.db.close();
  }

  private dropNow(transcriptId: number): void {
    this.sql("DELETE FROM messages WHERE transcript_id = ?").run(transcriptId);
    this.sql("DELETE FROM transcripts WHERE id = ?").run(transcriptId);
  }

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }
}

function openDb(Sqlite: typeof BetterSqlite3, file: string): Database {
  // Created 0600 before SQLite opens it, so the file is never readable by others; SQLite gives
  // its -wal and -shm files the same mode.
  fs.closeSync(fs.openSync(file, "a", 0o600));
  fs.chmodSync(file, 0o600);
  const db = new Sqlite(file);
  try {
    db.pragma("journal_mode = WAL");
    // A cache of the transcripts, written without fsync: a power cut may cost it, and a
    // damaged file is replaced by an empty index that the next searches fill again.
    db.pragma("synchronous = OFF");
    db.pragma("busy_timeout = 2000");
    db.pragma("cache_size = -2000");
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      db.exec("DROP TABLE IF EXISTS messages_fts; DROP TABLE IF EXISTS messages; DROP TABLE IF EXISTS transcripts;");
      db.exec(SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    // Reading the schema fails on a file that is not a database.
    db.prepare("SELECT count(*) FROM transcripts").get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
