import fs from "node:fs";
import path from "node:path";
import { loadSqlite } from "../../infra/sqlite-module.js";

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** The first bytes of a write-ahead log (either byte order) and of a rollback journal. */
const WAL_MAGIC = [Buffer.from([0x37, 0x7f, 0x06, 0x82]), Buffer.from([0x37, 0x7f, 0x06, 0x83])];
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

function readHead(file: string, length: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A SQLite database, known by its header whatever its name (traces, cron, memory, session search, or one in a workspace). */
export function isSqliteFile(file: string): boolean {
  return isSqliteHeader(readHead(file, SQLITE_HEADER.length));
}

export function isSqliteHeader(head: Buffer | undefined): boolean {
  return head !== undefined && head.length === SQLITE_HEADER.length && head.equals(SQLITE_HEADER);
}

/**
 * Why `file` is left out as a SQLite database's `-wal`, `-shm` or `-journal` file, or undefined when
 * it is not one. Such a file is never archived: alone it is useless, and beside a snapshot it
 * would be applied to the wrong database. Its database is one by header; one whose database is
 * gone is recognised by the database's name (`.sqlite`, `.sqlite3`, `.db`) or its own header.
 */
export function sqliteSidecarOf(file: string): string | undefined {
  const match = /^(.+)-(wal|shm|journal)$/.exec(path.basename(file));
  if (!match) return undefined;
  const database = path.join(path.dirname(file), match[1]!);
  const kind = match[2]!;
  if (fs.existsSync(database)) return isSqliteFile(database) ? `SQLite ${kind} file (the database's snapshot holds its committed data)` : undefined;
  const head = readHead(file, 8);
  const looksLikeOne = /\.(sqlite3?|db)$/.test(database) || (head !== undefined && (WAL_MAGIC.some((magic) => head.subarray(0, 4).equals(magic)) || head.equals(JOURNAL_MAGIC)));
  return looksLikeOne ? `SQLite ${kind} file without its database` : undefined;
}

/**
 * A consistent copy of a live database at `destination`, with SQLite's online backup API from a
 * read-only connection: it sees the committed state, WAL included, and never blocks or changes the
 * gateway's own connections. Each step copies every remaining page, so the copy is one
 * transaction's view (a write between steps makes SQLite start over). The copy is then made a
 * standalone file (rollback journal, no `-wal` to carry) and must pass `PRAGMA integrity_check`.
 */
export async function snapshotSqlite(source: string, destination: string): Promise<void> {
  const Sqlite = await loadSqlite("backup");
  const live = new Sqlite(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(destination, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
  } finally {
    live.close();
  }
  const copy = new Sqlite(destination, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  await checkSqliteIntegrity(destination);
}

/** Throws with SQLite's first complaint unless `PRAGMA integrity_check` answers `ok`. The file is opened read-only. */
export async function checkSqliteIntegrity(file: string): Promise<void> {
  const Sqlite = await loadSqlite("backup");
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    const problems = rows.map((row) => row.integrity_check).filter((line) => line !== "ok");
    if (problems.length > 0) throw new Error(`integrity_check: ${problems.slice(0, 3).join("; ")}`);
  } finally {
    db.close();
  }
}
