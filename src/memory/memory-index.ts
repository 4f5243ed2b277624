import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../infra/logger.js";
import { loadSqlite, type SqliteConstructor } from "../infra/sqlite-module.js";
import { createRemoteEmbedder, EmbeddingError, type Embedder } from "./embeddings.js";
import { checkDims, syncMemoryIndex, type SyncProgress, type SyncReport } from "./indexer.js";
import { MemoryStore, type IndexIdentity } from "./memory-store.js";
import { listMemoryFiles } from "./memory-files.js";
import { sessionTranscriptsChanged, syncSessionTranscripts } from "./session-transcripts.js";
import { rankCandidates, type Candidate } from "./ranking.js";
import { MAX_QUERY_CHARS } from "./query-terms.js";
import { fileNameMatches, firstChunksOf, InProcessVectors, textLeg, vecLeg } from "./search-legs.js";
import type { MemorySettings } from "./settings.js";
import { loadVectorExtension, type SqliteDatabase } from "./sqlite-runtime.js";
import { NOT_CHECKED, notReady, observeAnswers, READY, type EmbeddingReadiness } from "./embedding-readiness.js";
import { MemoryUnavailableError, type MemorySearchOptions, type MemorySearchResponse, type MemoryStatus } from "./types.js";

const SNIPPET_CHARS = 700;
/** A search waits this long for a sync that is under way before answering from what is indexed. */
const FRESHNESS_WAIT_MS = 500;
/** File times come from the kernel's coarse clock, up to a tick behind the wall clock a sync is timed by. */
const FILE_TIME_SLACK_MS = 20;

export interface MemoryIndexOptions {
  agentId: string;
  workspaceDir: string;
  /** The agent's transcripts (`<state>/agents/<agentId>/sessions`), indexed with the `sessions` source. */
  sessionsDir?: string;
  dbPath: string;
  settings: MemorySettings;
  logger: Pick<Logger, "warn" | "info" | "debug">;
  /** Replaces the embedder the settings describe (benchmarks, an in-process model). */
  embedder?: Embedder | null;
  /** A sqlite-vec binary to load instead of the packaged one ($OPENCLAW_SQLITE_VEC_PATH). */
  vecExtensionPath?: string;
  now?: () => Date;
}

/**
 * One agent's memory index: the SQLite file, its sync and its search. Open with
 * `MemoryIndex.open`; a missing or corrupt file is rebuilt from the Markdown files.
 */
export class MemoryIndex {
  private dirty = true;
  private syncing: Promise<SyncReport> | undefined;
  private syncAgain = false;
  private lastSyncAt: Date | undefined;
  private embeddingError: string | undefined;
  private skipped = new Map<string, string>();
  private readonly inProcess = new InProcessVectors();
  private closed = false;
  private syncedHere = false;
  /** A watcher reports file changes; without one, the files are compared at session start, search and status. */
  private watched = false;
  /** The provider returned vectors since this index opened (a sync, a search or a probe). */
  private embedderAnswered = false;
  private readonly embedder: Embedder | undefined;

  private constructor(
    private readonly options: MemoryIndexOptions,
    private readonly db: SqliteDatabase,
    readonly store: MemoryStore,
    embedder: Embedder | undefined,
    private readonly vecFallbackReason: string | undefined,
    private identityMismatch: string | undefined,
  ) {
    this.embedder = embedder && observeAnswers(embedder, () => (this.embedderAnswered = true));
  }

  static async open(options: MemoryIndexOptions): Promise<MemoryIndex> {
    const Database = await loadSqlite("memory");
    fs.mkdirSync(path.dirname(options.dbPath), { recursive: true, mode: 0o700 });
    const existed = fs.existsSync(options.dbPath);
    let opened = await tryOpen(Database, options);
    if ("error" in opened) {
      options.logger.warn({ dbPath: options.dbPath, err: opened.error }, "memory index is unreadable (corrupt?): moving it aside and rebuilding it from the Markdown files");
      moveAside(options.dbPath);
      opened = await tryOpen(Database, options);
      if ("error" in opened) throw new MemoryUnavailableError(`the memory index ${options.dbPath} cannot be created: ${opened.error}`);
    } else if (!existed) {
      // A marker beside the index tells a lost index (a warning) from the first one (news).
      const marker = `${options.dbPath}.created`;
      if (fs.existsSync(marker)) options.logger.warn({ dbPath: options.dbPath }, "memory index not found: building it from the Markdown files");
      else options.logger.info({ dbPath: options.dbPath }, "memory index created: indexing the Markdown files");
      fs.writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
    }
    const { db, store, vec } = opened;
    const embedder = options.embedder === undefined ? defaultEmbedder(options.settings) : (options.embedder ?? undefined);
    const identity = identityOf(options.settings, embedder);
    const stored = store.identity();
    let mismatch: string | undefined;
    if (!stored || store.counts().chunks === 0) store.setIdentity(identity);
    else mismatch = describeMismatch(stored, identity);
    if (mismatch)
      options.logger.warn({ agentId: options.agentId, change: mismatch }, "memory index identity changed: vector search is paused until `openclaw memory index --force`");
    return new MemoryIndex(options, db, store, embedder, vec.ok ? undefined : vec.reason, mismatch);
  }

  /** Vectors are used only with a provider, an unchanged identity and no failure since the last success. */
  private get vectorsUsable(): boolean {
    return this.embedder !== undefined && this.identityMismatch === undefined;
  }

  markDirty(): void {
    this.dirty = true;
  }

  /** Whether a watcher is reporting changes now (false when none was started or it failed). */
  setWatched(watched: boolean): void {
    this.watched = watched;
  }

  /** Something changed since the last sync, as far as can be known without one. */
  private async changedSinceSync(): Promise<boolean> {
    return this.watched ? this.sessionsGrew() : this.filesChanged();
  }

  /** A sync when something changed since the last one (always true for a freshly opened index). */
  async syncIfDirty(): Promise<void> {
    if (!this.dirty && !this.syncing && (await this.changedSinceSync())) this.dirty = true;
    if (this.dirty || this.syncing) await this.sync();
  }

  /**
   * Runs a sync, or joins the one under way (which then runs once more to see newer changes).
   * `force` drops the index and rebuilds it with the current identity.
   */
  sync(options: { force?: boolean; allSessionChanges?: boolean; onProgress?: (progress: SyncProgress) => void } = {}): Promise<SyncReport> {
    if (options.force) return this.rebuild(options.onProgress);
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = this.runSyncs(options.onProgress, options.allSessionChanges === true).finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async runSyncs(onProgress?: (progress: SyncProgress) => void, allSessionChanges = false): Promise<SyncReport> {
    let report: SyncReport;
    do {
      this.syncAgain = false;
      this.dirty = false;
      const listedAt = this.now();
      report = await syncMemoryIndex({
        store: this.store,
        workspaceDir: this.options.workspaceDir,
        extraPaths: this.options.settings.extraPaths,
        chunkTokens: this.options.settings.chunkTokens,
        chunkOverlap: this.options.settings.chunkOverlap,
        ...(this.vectorsUsable ? { embedder: this.embedder } : {}),
        ...(onProgress ? { onProgress } : {}),
        onSkip: (file) => {
          if (this.skipped.get(file.relPath) === file.reason) return;
          this.skipped.set(file.relPath, file.reason);
          this.options.logger.warn({ agentId: this.options.agentId, path: file.relPath, reason: file.reason }, "memory file not indexed");
        },
      });
      const sessionsDir = this.sessionsSource();
      if (sessionsDir) {
        const sessions = await syncSessionTranscripts({
          store: this.store,
          sessionsDir,
          chunkTokens: this.options.settings.chunkTokens,
          chunkOverlap: this.options.settings.chunkOverlap,
          ...(this.vectorsUsable && !report.embeddingError ? { embedder: this.embedder } : {}),
          all: allSessionChanges,
        });
        report = { ...report, indexed: report.indexed + sessions.indexed, removed: report.removed + sessions.removed, unchanged: report.unchanged + sessions.unchanged };
        if (sessions.embeddingError && !report.embeddingError) report.embeddingError = sessions.embeddingError;
      } else this.dropSessionTranscripts(report);
      for (const path of [...this.skipped.keys()]) if (!report.skipped.some((s) => s.relPath === path)) this.skipped.delete(path);
      // Kept in the index too, so a status from another process (the CLI beside a gateway) lists them.
      this.store.setMeta("skipped_files", JSON.stringify([...this.skipped]));
      this.noteEmbeddingOutcome(report.embeddingError);
      this.lastSyncAt = this.now();
      this.syncedHere = true;
      this.store.setMeta("last_sync_at", this.lastSyncAt.toISOString());
      this.store.setMeta("last_sync_listed_at", listedAt.toISOString());
    } while (this.syncAgain && !this.closed);
    return report;
  }

  private async rebuild(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    while (this.syncing) await this.syncing.catch(() => undefined);
    this.store.clear();
    this.store.setIdentity(identityOf(this.options.settings, this.embedder));
    this.identityMismatch = undefined;
    return this.sync(onProgress ? { onProgress } : {});
  }

  private noteEmbeddingOutcome(error: EmbeddingError | undefined): void {
    if (error && error.message !== this.embeddingError) {
      this.options.logger.warn({ agentId: this.options.agentId, err: error.message }, "memory embeddings failed: keyword search only until the provider answers again");
    }
    this.embeddingError = error?.message;
  }

  async search(query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResponse> {
    const settings = this.options.settings;
    const warnings: string[] = [];
    const trimmed = query.trim().slice(0, MAX_QUERY_CHARS);
    if (query.length > MAX_QUERY_CHARS) warnings.push(`the query was cut to its first ${MAX_QUERY_CHARS} characters`);
    if (!this.dirty && !this.syncing && (await this.changedSinceSync())) this.dirty = true;
    if (this.dirty && !this.syncing) void this.sync().catch((err) => this.options.logger.warn({ err: (err as Error).message }, "memory sync failed"));
    if (this.syncing) await Promise.race([this.syncing.catch(() => undefined), new Promise((r) => setTimeout(r, FRESHNESS_WAIT_MS).unref())]);
    const updating = this.syncing !== undefined;
    if (updating) warnings.push("the memory index is updating: results come from what is indexed so far");
    if (trimmed === "") return { results: [], mode: this.vectorsUsable ? "hybrid" : "fts-only", updating, warnings: [...warnings, "the query is empty"] };

    const queryVector = await this.queryVector(trimmed, warnings);
    const maxResults = options.maxResults ?? settings.maxResults;
    const perLeg = maxResults * settings.candidateMultiplier;
    const merged = new Map<number, Candidate>();
    const add = (list: Candidate[]) => {
      for (const c of list) merged.set(c.rowid, { ...merged.get(c.rowid), ...c });
    };
    let named: Set<string>;
    try {
      add(textLeg(this.store, trimmed, perLeg));
      if (queryVector) add(this.store.hasVecTable ? vecLeg(this.store, queryVector, perLeg) : this.inProcess.search(this.store, queryVector, perLeg));
      named = fileNameMatches(this.store, trimmed);
      const namedWithoutHit = [...named].filter((p) => ![...merged.values()].some((c) => c.path === p));
      add(firstChunksOf(this.store, namedWithoutHit));
    } catch (error) {
      throw this.damaged(error);
    }

    const ranked = rankCandidates([...merged.values()], {
      vectorWeight: settings.vectorWeight,
      textWeight: settings.textWeight,
      vectorActive: queryVector !== undefined,
      fileNameMatches: named,
      decay: settings.decay,
      mmr: settings.mmr,
      minScore: options.minScore ?? settings.minScore,
      maxResults,
      now: this.now(),
    });
    return {
      results: ranked.map((c) => ({ path: c.path, startLine: c.startLine, endLine: c.endLine, score: round(c.score), snippet: snippet(c.text) })),
      mode: queryVector ? "hybrid" : "fts-only",
      updating,
      warnings,
    };
  }

  /** A SQLite error that means the file is damaged becomes an error that says how to rebuild it. */
  private damaged(error: unknown): unknown {
    const code = (error as { code?: string }).code ?? "";
    if (!code.startsWith("SQLITE_CORRUPT") && code !== "SQLITE_NOTADB") return error;
    return new MemoryUnavailableError(
      `the memory index ${this.options.dbPath} is damaged (${(error as Error).message}): run openclaw memory index --force, or delete the file to have it rebuilt at the next start`,
    );
  }

  /**
   * The query's vector, or undefined for a keyword-only answer (with the reason in `warnings`).
   * An explicitly configured provider that cannot be reached at all fails the search closed.
   */
  private async queryVector(query: string, warnings: string[]): Promise<Float32Array | undefined> {
    const embedding = this.options.settings.embedding;
    if (!this.embedder) {
      if (embedding.kind === "none") return undefined;
      warnings.push("no embedder: keyword search only");
      return undefined;
    }
    if (this.identityMismatch) {
      warnings.push(`vector search is paused: ${this.identityMismatch}; run openclaw memory index --force`);
      return undefined;
    }
    try {
      const [vector] = await this.embedder.embed([query], { retries: 1 });
      checkDims(this.store, [vector!]);
      if (this.embeddingError) this.embeddingError = undefined;
      return vector;
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      if (error.kind === "unreachable" && embedding.kind === "remote" && embedding.explicit) throw new MemoryUnavailableError(error.message);
      this.noteEmbeddingOutcome(error);
      warnings.push(`vector search is off until the embedding provider works again: ${error.message}`);
      return undefined;
    }
  }

  /**
   * Before the first sync of this process, "dirty" is worked out from the files (sizes, mtimes,
   * the set of paths) instead of assumed; after it, the watcher and syncs keep it current, or,
   * with no watcher running, the files are compared again.
   */
  async status(): Promise<MemoryStatus> {
    if (!this.syncing && (!this.syncedHere || (!this.watched && !this.dirty))) this.dirty = await this.filesChanged();
    const counts = this.store.counts();
    const embedding = this.options.settings.embedding;
    const ftsOnlyReason = !this.embedder
      ? embedding.kind === "none"
        ? embedding.reason
        : "no embedder"
      : this.identityMismatch
        ? `vector search paused: ${this.identityMismatch} (run openclaw memory index --force)`
        : this.embeddingError;
    return {
      agentId: this.options.agentId,
      workspaceDir: this.options.workspaceDir,
      dbPath: this.options.dbPath,
      files: counts.files,
      chunks: counts.chunks,
      embeddedChunks: counts.embedded,
      mode: ftsOnlyReason ? "fts-only" : "hybrid",
      provider: this.embedder?.provider ?? "none",
      ...(this.embedder ? { model: this.embedder.model } : {}),
      ...(this.store.dims ? { dims: this.store.dims } : {}),
      vectorBackend: this.vecFallbackReason ? "in-process" : "sqlite-vec",
      ...(this.vecFallbackReason ? { fallbackReason: this.vecFallbackReason } : {}),
      ...(ftsOnlyReason ? { ftsOnlyReason } : {}),
      ...(this.identityMismatch ? { identityMismatch: this.identityMismatch } : {}),
      dirty: this.dirty,
      indexing: this.syncing !== undefined,
      ...(this.lastSyncAt ? { lastSyncAt: this.lastSyncAt.toISOString() } : this.store.getMeta("last_sync_at") ? { lastSyncAt: this.store.getMeta("last_sync_at")! } : {}),
      skipped: (this.syncedHere ? [...this.skipped] : this.skippedByLastSync()).map(([path, reason]) => ({ path, reason })),
    };
  }

  /**
   * What is known of the embedding provider without asking it: not ready without one, while the
   * identity changed or since it last failed; ready once it returned vectors; else not checked.
   */
  embeddingReadiness(): EmbeddingReadiness {
    const embedding = this.options.settings.embedding;
    if (!this.embedder) return notReady(embedding.kind === "none" ? embedding.reason : "no embedder");
    if (this.identityMismatch) return notReady(`vector search paused: ${this.identityMismatch} (run openclaw memory index --force)`);
    if (this.embeddingError) return notReady(this.embeddingError);
    return this.embedderAnswered ? READY : NOT_CHECKED;
  }

  /** Asks the provider for one vector now (once, no retries); a failure is remembered as a search's would be. */
  async probeEmbeddings(): Promise<EmbeddingReadiness> {
    if (!this.embedder || this.identityMismatch) return this.embeddingReadiness();
    try {
      const [vector] = await this.embedder.embed(["memory probe"], { retries: 0 });
      checkDims(this.store, [vector!]);
      this.embeddingError = undefined;
      return READY;
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      this.noteEmbeddingOutcome(error);
      return notReady(error.message);
    }
  }

  /** The files the last sync of any process skipped, as it recorded them (none when unreadable). */
  private skippedByLastSync(): [string, string][] {
    try {
      const parsed: unknown = JSON.parse(this.store.getMeta("skipped_files") ?? "[]");
      return Array.isArray(parsed) ? parsed.filter((e): e is [string, string] => Array.isArray(e) && typeof e[0] === "string" && typeof e[1] === "string") : [];
    } catch {
      return [];
    }
  }

  /** A transcript grew past the re-index threshold (nothing watches transcripts: they change every turn). */
  private async sessionsGrew(): Promise<boolean> {
    const sessionsDir = this.sessionsSource();
    return sessionsDir !== undefined && (await sessionTranscriptsChanged(this.store, sessionsDir));
  }

  /** The transcripts dir when the `sessions` source is on. */
  private sessionsSource(): string | undefined {
    return this.options.settings.sources.includes("sessions") ? this.options.sessionsDir : undefined;
  }

  /** With the `sessions` source off, transcripts indexed while it was on leave the index. */
  private dropSessionTranscripts(report: SyncReport): void {
    for (const relPath of this.store.files("sessions").keys()) {
      this.store.removeFile(relPath);
      report.removed++;
    }
  }

  private async filesChanged(): Promise<boolean> {
    const sessionsDir = this.sessionsSource();
    if (sessionsDir && (await sessionTranscriptsChanged(this.store, sessionsDir))) return true;
    const listing = await listMemoryFiles(this.options.workspaceDir, this.options.settings.extraPaths);
    const known = this.store.files("memory");
    // A file with no row (new, or seen and left out: empty, binary) is changed when its mtime is
    // not older than the last sync's listing, less the coarse clock file times are stamped with.
    const listedAt = Date.parse(this.store.getMeta("last_sync_listed_at") ?? this.store.getMeta("last_sync_at") ?? "") || 0;
    const lastSync = listedAt - FILE_TIME_SLACK_MS;
    const listed = new Set(listing.files.map((f) => f.relPath));
    if ([...known.keys()].some((p) => !listed.has(p))) return true;
    return listing.files.some((f) => {
      const row = known.get(f.relPath);
      return row ? row.mtime !== f.mtimeMs || row.size !== f.size : f.mtimeMs >= lastSync;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.syncing?.catch(() => undefined);
    this.db.close();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

type Opened = { db: SqliteDatabase; store: MemoryStore; vec: Awaited<ReturnType<typeof loadVectorExtension>> };

async function tryOpen(Database: SqliteConstructor, options: MemoryIndexOptions): Promise<Opened | { error: string }> {
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(options.dbPath);
    const vec = await loadVectorExtension(db, options.vecExtensionPath);
    // Reading the schema fails on a file that is not a database (or whose first pages are
    // damaged); a full integrity check would read every page of a large index at each start.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    const store = new MemoryStore(db, vec.ok);
    return { db, store, vec };
  } catch (error) {
    db?.close();
    return { error: (error as Error).message };
  }
}

function moveAside(dbPath: string): void {
  const aside = `${dbPath}.corrupt-${Date.now()}`;
  try {
    fs.renameSync(dbPath, aside);
  } catch {
    fs.rmSync(dbPath, { force: true });
  }
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(dbPath + suffix, { force: true });
}

function defaultEmbedder(settings: MemorySettings): Embedder | undefined {
  return settings.embedding.kind === "remote" ? createRemoteEmbedder(settings.embedding) : undefined;
}

function identityOf(settings: MemorySettings, embedder: Embedder | undefined): IndexIdentity {
  return {
    provider: embedder?.provider ?? "none",
    model: embedder?.model ?? "none",
    chunkTokens: settings.chunkTokens,
    chunkOverlap: settings.chunkOverlap,
    sources: [...settings.sources],
  };
}

function describeMismatch(stored: IndexIdentity, current: IndexIdentity): string | undefined {
  const changes: string[] = [];
  if (stored.provider !== current.provider) changes.push(`provider ${stored.provider} → ${current.provider}`);
  if (stored.model !== current.model) changes.push(`model ${stored.model} → ${current.model}`);
  if (stored.chunkTokens !== current.chunkTokens || stored.chunkOverlap !== current.chunkOverlap) {
    changes.push(`chunking ${stored.chunkTokens}/${stored.chunkOverlap} → ${current.chunkTokens}/${current.chunkOverlap}`);
  }
  if (stored.sources.join(",") !== current.sources.join(",")) changes.push(`sources ${stored.sources.join(",")} → ${current.sources.join(",")}`);
  return changes.length > 0 ? `the index was built with ${changes.join(", ")}` : undefined;
}

function snippet(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= SNIPPET_CHARS ? trimmed : `${trimmed.slice(0, SNIPPET_CHARS)}…`;
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
