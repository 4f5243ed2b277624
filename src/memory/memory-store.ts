import type { TextChunk } from "./chunker.js";
import type { SqliteDatabase, Statement } from "./sqlite-runtime.js";

/** What the vectors in an index were made with; a change means they no longer compare. */
export interface IndexIdentity {
  provider: string;
  model: string;
  chunkTokens: number;
  chunkOverlap: number;
  sources: string[];
}

export interface FileRow {
  path: string;
  source: string;
  hash: string;
  mtime: number;
  size: number;
}

export interface ChunkRow {
  rowid: number;
  id: string;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY, source TEXT NOT NULL DEFAULT 'memory', hash TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
  id TEXT PRIMARY KEY, path TEXT NOT NULL, source TEXT NOT NULL DEFAULT 'memory', start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL, hash TEXT NOT NULL, model TEXT, dims INTEGER, text TEXT NOT NULL, embedding BLOB,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS chunks_source ON chunks(source);
CREATE TABLE IF NOT EXISTS embedding_cache (
  provider TEXT NOT NULL, model TEXT NOT NULL, provider_key TEXT NOT NULL, hash TEXT NOT NULL, embedding BLOB NOT NULL,
  dims INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (provider, model, provider_key, hash)
);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
  text, id UNINDEXED, path UNINDEXED, source UNINDEXED, model UNINDEXED, start_line UNINDEXED, end_line UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_cjk USING fts5(text, tokenize = 'trigram');
`;

/** Runs of CJK characters: word tokenizers see a whole run as one word, so they get a trigram index of their own. */
const CJK_RUNS = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/g;

/**
 * sqlite-vec packs a bit vector into whole bytes, so `vec_quantize_binary` takes only vectors
 * whose size is a multiple of 8; models of other sizes (a shortened OpenAI vector, small local
 * models) are padded with zeros. Zeros quantize to 0 in every vector, query included, so the
 * padding adds nothing to a Hamming distance.
 */
function bitColumnSize(dims: number): number {
  return Math.ceil(dims / 8) * 8;
}

/** A float32 vector blob, zero-padded to bitColumnSize for `vec_quantize_binary`. */
export function bitQuantizable(blob: Buffer): Buffer {
  const dims = blob.byteLength / 4;
  const padded = bitColumnSize(dims);
  return padded === dims ? blob : Buffer.concat([blob, Buffer.alloc((padded - dims) * 4)]);
}

export function cjkText(text: string): string {
  return (text.match(CJK_RUNS) ?? []).join(" ");
}

/**
 * The SQL side of one agent's memory index. `chunks.rowid` ties a chunk to its rows in
 * `chunks_fts` (words, Porter-stemmed), `chunks_fts_cjk` (trigrams of its CJK text, when it has
 * any) and `chunks_vec` (a 1-bit-per-dimension copy of its vector, for a fast first pass; the
 * float vector stays in `chunks.embedding`). Every write that touches one touches all of them in
 * the same transaction, so a crash leaves no half-indexed chunk.
 */
export class MemoryStore {
  private vecDims: number | undefined;
  /** Bumped on every write: caches of what the index holds (paths, in-process vectors) are valid for one version. */
  version = 0;

  constructor(
    readonly db: SqliteDatabase,
    private readonly vecLoaded: boolean,
  ) {
    db.pragma("journal_mode = WAL");
    // The index is a cache of the Markdown files: it is written without fsync, so a checkpoint
    // never stalls the event loop on the disk. A killed process loses nothing (the WAL is in the
    // OS cache); a power cut may damage the file, which is then rebuilt (docs/memory.md).
    db.pragma("synchronous = OFF");
    db.pragma("busy_timeout = 5000");
    // better-sqlite3 defaults to a 16 MB page cache per connection; searches touch few pages
    // twice, and the OS page cache holds the file anyway.
    db.pragma("cache_size = -2000");
    db.exec(SCHEMA);
    const dims = this.getMeta("dims");
    if (dims) this.vecDims = Number(dims);
    if (vecLoaded && this.vecDims) this.ensureVecTable(this.vecDims);
  }

  private readonly statements = new Map<string, Statement>();

  /** A prepared statement, compiled once per SQL text (SQLite recompiles it after a schema change). */
  sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  get hasVecTable(): boolean {
    return this.vecLoaded && this.vecDims !== undefined;
  }

  get dims(): number | undefined {
    return this.vecDims;
  }

  getMeta(key: string): string | undefined {
    return (this.sql("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  identity(): IndexIdentity | undefined {
    const raw = this.getMeta("identity");
    return raw ? (JSON.parse(raw) as IndexIdentity) : undefined;
  }

  setIdentity(identity: IndexIdentity): void {
    this.setMeta("identity", JSON.stringify(identity));
  }

  /** Vectors are stored once their size is known; a different size later is refused by the caller. */
  setDims(dims: number): void {
    if (this.vecDims === dims) return;
    this.vecDims = dims;
    this.setMeta("dims", String(dims));
    if (this.vecLoaded) this.ensureVecTable(dims);
  }

  /**
   * A vector table made after vectors were stored (sqlite-vec was missing then) is filled from
   * `chunks`; so is one whose bit size is not the one these vectors quantize to (made before
   * sizes were padded to a multiple of 8), after it is dropped.
   */
  private ensureVecTable(dims: number): void {
    const existing = this.sql("SELECT sql FROM sqlite_master WHERE name = 'chunks_vec'").get() as { sql: string } | undefined;
    if (existing?.sql.includes(`bit[${bitColumnSize(dims)}]`)) return;
    if (existing) this.db.exec("DROP TABLE chunks_vec");
    this.db.exec(`CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding bit[${bitColumnSize(dims)}])`);
    const rows = this.sql("SELECT rowid, embedding FROM chunks WHERE embedding IS NOT NULL AND dims = ?").all(dims) as { rowid: number; embedding: Buffer }[];
    const insert = this.sql("INSERT INTO chunks_vec (rowid, embedding) VALUES (?, vec_quantize_binary(?))");
    this.db.transaction(() => {
      for (const row of rows) insert.run(BigInt(row.rowid), bitQuantizable(row.embedding));
    })();
  }

  private namesCache: { version: number; names: FileNames[] } | undefined;

  /**
   * The indexed paths with the lower-case forms a query is matched against, cached until the
   * next write: a search compares them with every file and allocates nothing per file.
   */
  fileNames(): readonly FileNames[] {
    if (this.namesCache?.version !== this.version) {
      const names = (this.sql("SELECT path FROM files").all() as { path: string }[]).map((r) => fileNamesOf(r.path));
      this.namesCache = { version: this.version, names };
    }
    return this.namesCache.names;
  }

  /** The indexed files (of one source when named: `memory` files or `sessions` transcripts). */
  files(source?: string): Map<string, FileRow> {
    const rows = (
      source ? this.sql("SELECT path, source, hash, mtime, size FROM files WHERE source = ?").all(source) : this.sql("SELECT path, source, hash, mtime, size FROM files").all()
    ) as FileRow[];
    return new Map(rows.map((row) => [row.path, row]));
  }

  counts(): { files: number; chunks: number; embedded: number } {
    const files = (this.sql("SELECT count(*) AS n FROM files").get() as { n: number }).n;
    // `dims` is set exactly when `embedding` is, and sits before the text: counting it reads no blobs.
    const chunks = this.sql("SELECT count(*) AS n, count(dims) AS e FROM chunks").get() as { n: number; e: number };
    return { files, chunks: chunks.n, embedded: chunks.e };
  }

  touchFile(row: FileRow): void {
    this.sql("UPDATE files SET mtime = ?, size = ? WHERE path = ?").run(row.mtime, row.size, row.path);
  }

  /** Removes a file and all its chunks, in one transaction. */
  removeFile(path: string): void {
    this.db.transaction(() => {
      this.deleteChunksOf(path);
      this.sql("DELETE FROM files WHERE path = ?").run(path);
    })();
    this.version++;
  }

  /** Paths with chunks but no `files` row: a sync killed between `beginFile` and `commitFile`. */
  unlistedChunkPaths(): string[] {
    const rows = this.sql("SELECT DISTINCT path FROM chunks WHERE path NOT IN (SELECT path FROM files)").all() as { path: string }[];
    return rows.map((r) => r.path);
  }

  /**
   * The first step of re-indexing a file: its old chunks go and its `files` row is dropped, so a
   * crash before `commitFile` leaves the file unlisted and the next sync indexes it again.
   */
  beginFile(path: string): void {
    this.removeFile(path);
  }

  /** Adds chunks of a file being indexed (one transaction per call; the caller slices). */
  insertChunks(path: string, chunks: readonly (TextChunk & { hash: string; embedding?: Float32Array })[], model: string | null, source = "memory"): void {
    const now = Date.now();
    const insertChunk = this.sql(
      "INSERT OR REPLACE INTO chunks (id, path, source, start_line, end_line, hash, model, dims, text, embedding, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const insertFts = this.sql("INSERT INTO chunks_fts (rowid, text, id, path, source, model, start_line, end_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    const insertCjk = this.sql("INSERT INTO chunks_fts_cjk (rowid, text) VALUES (?, ?)");
    this.db.transaction(() => {
      for (const chunk of chunks) {
        const id = `${path}#${chunk.startLine}-${chunk.endLine}:${chunk.hash.slice(0, 12)}`;
        const blob = chunk.embedding ? Buffer.from(chunk.embedding.buffer, chunk.embedding.byteOffset, chunk.embedding.byteLength) : null;
        const rowid = Number(
          insertChunk.run(id, path, source, chunk.startLine, chunk.endLine, chunk.hash, blob ? model : null, chunk.embedding?.length ?? null, chunk.text, blob, now)
            .lastInsertRowid,
        );
        insertFts.run(rowid, chunk.text, id, path, source, model, chunk.startLine, chunk.endLine);
        const cjk = cjkText(chunk.text);
        if (cjk) insertCjk.run(rowid, cjk);
        if (blob && this.hasVecTable) this.insertVec(rowid, blob);
      }
    })();
    this.version++;
  }

  commitFile(row: FileRow): void {
    this.sql("INSERT OR REPLACE INTO files (path, source, hash, mtime, size) VALUES (?, ?, ?, ?, ?)").run(row.path, row.source, row.hash, row.mtime, row.size);
    this.version++;
  }

  /** Chunks indexed without a vector (the provider failed then): filled in once it works. */
  chunksWithoutEmbedding(limit: number): { rowid: number; hash: string; text: string }[] {
    return this.sql("SELECT rowid, hash, text FROM chunks WHERE dims IS NULL LIMIT ?").all(limit) as { rowid: number; hash: string; text: string }[];
  }

  setEmbeddings(rows: readonly { rowid: number; embedding: Float32Array }[], model: string): void {
    const update = this.sql("UPDATE chunks SET embedding = ?, model = ?, dims = ? WHERE rowid = ?");
    const updateFts = this.sql("UPDATE chunks_fts SET model = ? WHERE rowid = ?");
    this.db.transaction(() => {
      for (const row of rows) {
        const blob = Buffer.from(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength);
        update.run(blob, model, row.embedding.length, row.rowid);
        updateFts.run(model, row.rowid);
        if (this.hasVecTable) this.insertVec(row.rowid, blob);
      }
    })();
    this.version++;
  }

  cachedEmbeddings(provider: string, model: string, key: string, hashes: readonly string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    const select = this.sql("SELECT embedding FROM embedding_cache WHERE provider = ? AND model = ? AND provider_key = ? AND hash = ?");
    for (const hash of hashes) {
      const row = select.get(provider, model, key, hash) as { embedding: Buffer } | undefined;
      if (row) found.set(hash, toFloat32(row.embedding));
    }
    return found;
  }

  cacheEmbeddings(provider: string, model: string, key: string, entries: readonly { hash: string; embedding: Float32Array }[]): void {
    const insert = this.sql("INSERT OR REPLACE INTO embedding_cache (provider, model, provider_key, hash, embedding, dims, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    const now = Date.now();
    this.db.transaction(() => {
      for (const e of entries) insert.run(provider, model, key, e.hash, Buffer.from(e.embedding.buffer, e.embedding.byteOffset, e.embedding.byteLength), e.embedding.length, now);
    })();
  }

  chunksByRowid(rowids: readonly number[]): Map<number, ChunkRow> {
    if (rowids.length === 0) return new Map();
    const rows = this.sql("SELECT rowid, id, path, start_line AS startLine, end_line AS endLine, text FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))").all(
      JSON.stringify(rowids),
    ) as ChunkRow[];
    return new Map(rows.map((row) => [row.rowid, row]));
  }

  /** Drops every indexed chunk, file and the vector table (a forced rebuild); the cache stays. */
  clear(): void {
    this.db.transaction(() => {
      this.db.exec("DELETE FROM chunks; DELETE FROM files; DELETE FROM chunks_fts; DELETE FROM chunks_fts_cjk; DELETE FROM meta WHERE key IN ('dims', 'identity');");
      this.db.exec("DROP TABLE IF EXISTS chunks_vec");
    })();
    this.vecDims = undefined;
    this.version++;
  }

  private deleteChunksOf(path: string): void {
    const rowids = (this.sql("SELECT rowid FROM chunks WHERE path = ?").all(path) as { rowid: number }[]).map((r) => r.rowid);
    if (rowids.length === 0) return;
    const deleteFts = this.sql("DELETE FROM chunks_fts WHERE rowid = ?");
    const deleteCjk = this.sql("DELETE FROM chunks_fts_cjk WHERE rowid = ?");
    const deleteVec = this.hasVecTable ? this.sql("DELETE FROM chunks_vec WHERE rowid = ?") : undefined;
    for (const rowid of rowids) {
      deleteFts.run(rowid);
      deleteCjk.run(rowid);
      deleteVec?.run(BigInt(rowid));
    }
    this.sql("DELETE FROM chunks WHERE path = ?").run(path);
    this.version++;
  }

  private insertVec(rowid: number, blob: Buffer): void {
    if (blob.byteLength / 4 !== this.vecDims) return;
    // vec0 tables have no REPLACE: delete, then insert.
    this.sql("DELETE FROM chunks_vec WHERE rowid = ?").run(BigInt(rowid));
    this.sql("INSERT INTO chunks_vec (rowid, embedding) VALUES (?, vec_quantize_binary(?))").run(BigInt(rowid), bitQuantizable(blob));
  }
}

/** An indexed path and the lower-case forms of it a query can spell: the path, its file name, that name without `.md`. */
export interface FileNames {
  path: string;
  lowerPath: string;
  lowerBase: string;
  lowerStem: string;
}

function fileNamesOf(path: string): FileNames {
  const lowerPath = path.toLowerCase();
  const lowerBase = lowerPath.slice(lowerPath.lastIndexOf("/") + 1);
  return { path, lowerPath, lowerBase, lowerStem: lowerBase.replace(/\.md$/, "") };
}

export function toFloat32(blob: Buffer): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
