import fs from "node:fs/promises";
import path from "node:path";
import { SearchIndexDb, type IndexedTranscript, type MatchRow } from "./search-index-db.js";
import type { SearchQuery } from "./search-query.js";
import { snippetAround } from "./snippet.js";
import { indexSteps, readTranscriptSlice } from "./transcript-slice.js";

/** How much of one transcript is read and indexed before the search yields to the event loop. */
const SLICE_BYTES = 64 * 1024;

/** How many transcript bytes one search may read to bring the index up to date; the rest waits for the next search. */
const SEARCH_INDEX_BYTES = 8 * 1024 * 1024;

/** A session a search may look into: its key, its id and its live transcript. */
export interface SearchableSession {
  sessionKey: string;
  sessionId: string;
  sessionFile: string;
}

export interface SessionSearchRequest {
  /** The sessions the caller may see, the most recently updated first (indexed in that order): only these are searched. */
  sessions: readonly SearchableSession[];
  /** The live transcript of a session key now, or undefined when the session no longer exists. */
  liveTranscript: (sessionKey: string) => string | undefined;
  query: SearchQuery;
  /** At most this many hits. */
  limit: number;
  /** Masks secrets in a message's text; snippets are cut from its result. */
  redact: (text: string) => string;
}

export interface SessionSearchHit {
  sessionKey: string;
  sessionId: string;
  role: string;
  /** When the message was written (ms since the epoch). */
  at: number;
  snippet: string;
  /** Higher is better (negated bm25). */
  score: number;
  /**
   * How many messages `sessions_history` shows after this one in its session, as of this search;
   * absent while that transcript is not fully indexed.
   */
  newerMessages?: number;
}

export interface SessionSearchResult {
  hits: SessionSearchHit[];
  /** Some visible transcript has bytes this search had no budget left to index: hits may be missing. */
  indexing: boolean;
}

/** The index could not be opened or read (SQLite missing, the file damaged). */
export class SessionSearchUnavailableError extends Error {}

/** The index file of a state dir. */
export function sessionSearchIndexPath(stateDir: string): string {
  return path.join(stateDir, "sessions-search", "index.sqlite");
}

/**
 * Full-text search over the user and assistant text of session transcripts (`sessions_search`,
 * see docs/tools.md). Nothing is indexed when a message is written: a turn never pays for it. A
 * search first drops the rows of sessions deleted or reset since, then brings each visible
 * transcript up to date from the bytes appended since the offset indexed last time — in slices,
 * yielding between them, at most SEARCH_INDEX_BYTES per search — and re-reads from the start a
 * transcript that was replaced (another inode) or shrank (a rotation). Searches run one at a
 * time; the SQLite file is opened at the first one.
 */
export class SessionSearchIndex {
  private db: Promise<SearchIndexDb> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly options: {
      file: string;
      onWarning?: (message: string) => void;
      /** Transcript bytes one search may read to catch up (default SEARCH_INDEX_BYTES). */
      budgetBytes?: number;
    },
  ) {}

  search(request: SessionSearchRequest): Promise<SessionSearchResult> {
    const run = this.queue.then(() => this.searchNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for the search under way, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const db = this.db;
    this.db = undefined;
    if (db) (await db.catch(() => undefined))?.close();
  }

  private async searchNow(request: SessionSearchRequest): Promise<SessionSearchResult> {
    if (this.closed) throw new SessionSearchUnavailableError("the gateway is stopping");
    const db = await this.open();
    try {
      const { searchable, complete, indexing } = await this.catchUp(db, request);
      const byId = new Map(searchable.map((t) => [t.id, t]));
      const rows = db.search(request.query.match, [...byId.keys()], request.limit);
      return { hits: rows.map((row) => toHit(row, byId.get(row.transcriptId)!, complete.has(row.transcriptId), request)), indexing };
    } catch (err) {
      if (!isDamaged(err)) throw err;
      // A cache: the damaged file is dropped, and the next search starts an empty one.
      this.db = undefined;
      db.close();
      for (const suffix of ["", "-wal", "-shm"]) await fs.rm(this.options.file + suffix, { force: true });
      throw new SessionSearchUnavailableError(`the session search index was damaged (${(err as Error).message}) and is rebuilt at the next search`);
    }
  }

  private open(): Promise<SearchIndexDb> {
    this.db ??= SearchIndexDb.open(this.options.file, (message) => this.options.onWarning?.(message)).catch((err: Error) => {
      this.db = undefined;
      throw new SessionSearchUnavailableError(err.message);
    });
    return this.db;
  }

  /**
   * Drops the rows of sessions that no longer exist or moved to another transcript (a reset),
   * then indexes what each visible transcript gained, in `sessions` order, until the budget is
   * spent. Returns the visible transcripts' rows, those fully indexed, and whether any was not.
   */
  private async catchUp(db: SearchIndexDb, request: SessionSearchRequest): Promise<{ searchable: IndexedTranscript[]; complete: Set<number>; indexing: boolean }> {
    const rows = new Map<string, IndexedTranscript>();
    for (const row of db.transcripts()) {
      if (request.liveTranscript(row.sessionKey) === row.file) rows.set(row.sessionKey, row);
      else db.drop(row.id);
    }
    const searchable: IndexedTranscript[] = [];
    const complete = new Set<number>();
    let budget = this.options.budgetBytes ?? SEARCH_INDEX_BYTES;
    let indexing = false;
    for (const session of request.sessions) {
      const known = rows.get(session.sessionKey);
      const stat = await fs.stat(session.sessionFile, { bigint: true }).catch(() => undefined);
      if (!stat?.isFile()) {
        if (known) db.drop(known.id);
        continue;
      }
      const fileId = `${stat.dev}:${stat.ino}`;
      const size = Number(stat.size);
      const current = known && known.file === session.sessionFile && known.fileId === fileId && size >= known.indexedBytes;
      const row = current ? known : db.start(session.sessionKey, session.sessionId, session.sessionFile, fileId);
      searchable.push(row);
      let upToDate = row.indexedBytes >= size;
      if (!upToDate && budget > 0) {
        const indexed = await this.index(db, row, size, budget);
        budget -= indexed.read;
        upToDate = indexed.upToDate;
      }
      if (upToDate) complete.add(row.id);
      else indexing = true;
    }
    return { searchable, complete, indexing };
  }

  /**
   * Indexes `row`'s transcript from its offset towards `size`, slice by slice, reading about
   * `budget` bytes. `upToDate`: every complete line before `size` is indexed (what is left, if
   * anything, is a last line still without its newline).
   */
  private async index(db: SearchIndexDb, row: IndexedTranscript, size: number, budget: number): Promise<{ read: number; upToDate: boolean }> {
    const handle = await fs.open(row.file, "r").catch(() => undefined);
    if (!handle) return { read: 0, upToDate: false };
    let read = 0;
    try {
      // The file at the path may have been replaced since it was looked at: read on only if it is the same one.
      const stat = await handle.stat({ bigint: true });
      if (`${stat.dev}:${stat.ino}` !== row.fileId) return { read, upToDate: false };
      while (row.indexedBytes < size) {
        if (read >= budget) return { read, upToDate: false };
        const slice = await readTranscriptSlice(handle, row.indexedBytes, size, Math.min(SLICE_BYTES, budget - read));
        read += slice.bytesRead;
        if (slice.end === row.indexedBytes) break;
        db.apply(row, indexSteps(slice.lines), slice.end);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { read, upToDate: true };
    } finally {
      await handle.close();
    }
  }
}

function toHit(row: MatchRow, transcript: IndexedTranscript, complete: boolean, request: SessionSearchRequest): SessionSearchHit {
  return {
    sessionKey: transcript.sessionKey,
    sessionId: transcript.sessionId,
    role: row.role,
    at: row.at,
    // The whole text is redacted before the snippet is cut: a secret at the cut is still whole when it is masked.
    snippet: snippetAround(request.redact(row.text), request.query.words),
    score: Number((-row.rank).toPrecision(3)),
    ...(complete ? { newerMessages: transcript.shown - 1 - row.position } : {}),
  };
}

function isDamaged(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}
