import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { chunkText } from "./chunker.js";
import { EmbeddingError, type Embedder } from "./embeddings.js";
import { listMemoryFiles, unreadableReason, type SkippedFile } from "./memory-files.js";
import type { FileRow, MemoryStore } from "./memory-store.js";

/** Chunks written per transaction; the event loop gets a turn between two slices. */
const CHUNKS_PER_SLICE = 16;
/** Where indexed session transcripts live in the index's path space (never a workspace file). */
export const SESSION_PATH_PREFIX = "sessions/";

export interface SyncProgress {
  done: number;
  total: number;
  path?: string;
}

export interface SyncInput {
  store: MemoryStore;
  workspaceDir: string;
  extraPaths: readonly string[];
  chunkTokens: number;
  chunkOverlap: number;
  /** Absent when vectors are off or paused: chunks are then indexed for keyword search only. */
  embedder?: Embedder;
  onProgress?: (progress: SyncProgress) => void;
  onSkip?: (file: SkippedFile) => void;
}

export interface SyncReport {
  indexed: number;
  removed: number;
  unchanged: number;
  skipped: SkippedFile[];
  /** Set when the embedding provider failed: the affected chunks are searchable by keyword only. */
  embeddingError?: EmbeddingError;
}

/**
 * Brings the index in line with the files: new and changed files (by size and mtime, then by
 * content hash) are re-chunked, deleted or unreadable ones leave the index. Work is done in
 * small slices with a yield to the event loop between them, so turns keep flowing meanwhile.
 */
export async function syncMemoryIndex(input: SyncInput): Promise<SyncReport> {
  const { store } = input;
  const listing = await listMemoryFiles(input.workspaceDir, input.extraPaths);
  const known = store.files("memory");
  const report: SyncReport = { indexed: 0, removed: 0, unchanged: 0, skipped: [...listing.skipped] };
  for (const skipped of listing.skipped) input.onSkip?.(skipped);

  const present = new Set(listing.files.map((f) => f.relPath));
  for (const path of known.keys()) {
    if (present.has(path)) continue;
    store.removeFile(path);
    report.removed++;
    await yieldToLoop();
  }
  // Chunks of a file whose indexing was cut off (the process killed before its `files` row was
  // written): a file still on disk is indexed again below, one that is gone must not linger.
  for (const path of store.unlistedChunkPaths()) {
    if (present.has(path) || path.startsWith(SESSION_PATH_PREFIX)) continue;
    store.removeFile(path);
    report.removed++;
  }

  let embedder = input.embedder;
  const total = listing.files.length;
  for (const [index, file] of listing.files.entries()) {
    input.onProgress?.({ done: index, total, path: file.relPath });
    const prior = known.get(file.relPath);
    if (prior && prior.mtime === file.mtimeMs && prior.size === file.size) {
      report.unchanged++;
      continue;
    }
    const bytes = await fs.readFile(file.absPath).catch(() => undefined);
    if (!bytes) continue;
    const reason = unreadableReason(bytes) ?? (bytes.toString("utf8").trim() === "" ? "empty" : undefined);
    if (reason) {
      if (prior) store.removeFile(file.relPath);
      if (reason !== "empty") {
        const skipped = { relPath: file.relPath, reason };
        report.skipped.push(skipped);
        input.onSkip?.(skipped);
      }
      continue;
    }
    const hash = sha256(bytes);
    const row = { path: file.relPath, source: "memory", hash, mtime: file.mtimeMs, size: file.size };
    if (prior?.hash === hash) {
      store.touchFile(row);
      report.unchanged++;
      continue;
    }
    const failed = await indexDocument(store, row, bytes.toString("utf8"), { chunkTokens: input.chunkTokens, chunkOverlap: input.chunkOverlap, ...(embedder ? { embedder } : {}) });
    if (failed) {
      report.embeddingError = failed;
      embedder = undefined; // the rest of this sync indexes text only; the next one retries
    }
    report.indexed++;
  }
  if (embedder) await backfillEmbeddings(store, embedder, report);
  input.onProgress?.({ done: total, total });
  return report;
}

/**
 * Replaces one document's chunks (a memory file, a transcript) with those of `text`, embedded
 * when an embedder is given, written in slices with a yield between them, and lists it as `row`.
 * Returns the embedding failure when the provider failed: the chunks are then indexed for
 * keyword search only.
 */
export async function indexDocument(
  store: MemoryStore,
  row: FileRow,
  text: string,
  options: { chunkTokens: number; chunkOverlap: number; embedder?: Embedder },
): Promise<EmbeddingError | undefined> {
  const chunks = chunkText(text, options.chunkTokens, options.chunkOverlap).map((c) => ({ ...c, hash: sha256(c.text) }));
  let embedder = options.embedder;
  let failure: EmbeddingError | undefined;
  let vectors: (Float32Array | undefined)[] = [];
  if (embedder) {
    try {
      vectors = await embedWithCache(store, embedder, chunks);
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      failure = error;
      embedder = undefined;
    }
  }
  store.beginFile(row.path);
  for (let start = 0; start < chunks.length; start += CHUNKS_PER_SLICE) {
    const slice = chunks.slice(start, start + CHUNKS_PER_SLICE).map((c, i) => ({ ...c, embedding: vectors[start + i] }));
    store.insertChunks(row.path, slice, embedder?.model ?? null, row.source);
    await yieldToLoop();
  }
  store.commitFile(row);
  return failure;
}

/** Vectors for chunks indexed while the provider was failing. */
async function backfillEmbeddings(store: MemoryStore, embedder: Embedder, report: SyncReport): Promise<void> {
  for (;;) {
    const missing = store.chunksWithoutEmbedding(CHUNKS_PER_SLICE);
    if (missing.length === 0) return;
    try {
      const vectors = await embedWithCache(store, embedder, missing);
      store.setEmbeddings(
        missing.map((m, i) => ({ rowid: m.rowid, embedding: vectors[i]! })),
        embedder.model,
      );
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      report.embeddingError = error;
      return;
    }
    await yieldToLoop();
  }
}

/**
 * One vector per chunk: from the cache when this endpoint and model embedded the same text
 * before, else from the provider. A vector of a size other than the index's is an error.
 */
export async function embedWithCache(store: MemoryStore, embedder: Embedder, chunks: readonly { hash: string; text: string }[]): Promise<Float32Array[]> {
  const cached = store.cachedEmbeddings(
    embedder.provider,
    embedder.model,
    embedder.key,
    chunks.map((c) => c.hash),
  );
  const missing = chunks.filter((c) => !cached.has(c.hash));
  if (missing.length > 0) {
    const fresh = await embedder.embed(missing.map((c) => c.text));
    checkDims(store, fresh);
    store.cacheEmbeddings(
      embedder.provider,
      embedder.model,
      embedder.key,
      missing.map((c, i) => ({ hash: c.hash, embedding: fresh[i]! })),
    );
    missing.forEach((c, i) => cached.set(c.hash, fresh[i]!));
  }
  const vectors = chunks.map((c) => cached.get(c.hash)!);
  checkDims(store, vectors);
  return vectors;
}

export function checkDims(store: MemoryStore, vectors: readonly Float32Array[]): void {
  const dims = vectors[0]?.length;
  if (dims === undefined) return;
  if (store.dims === undefined) store.setDims(dims);
  else if (store.dims !== dims) {
    throw new EmbeddingError(
      "bad-response",
      `embedding provider returned ${dims}-dimensional vectors, but this index holds ${store.dims}-dimensional ones (run openclaw memory index --force after changing the model)`,
    );
  }
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
