/** One search result: a chunk of a memory file. `path` is relative to the workspace. */
export interface MemorySearchHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
}

export interface MemorySearchOptions {
  maxResults?: number;
  minScore?: number;
}

export interface MemorySearchResponse {
  results: MemorySearchHit[];
  /** `hybrid`: vectors and keywords; `fts-only`: keywords only (see `warnings` for why). */
  mode: "hybrid" | "fts-only";
  /** True while a sync runs: the answer comes from what is indexed so far. */
  updating: boolean;
  warnings: string[];
}

export interface MemoryStatus {
  agentId: string;
  workspaceDir: string;
  dbPath: string;
  files: number;
  chunks: number;
  embeddedChunks: number;
  mode: "hybrid" | "fts-only";
  provider: string;
  model?: string;
  dims?: number;
  /** Where vectors are compared: the sqlite-vec extension, or this process when it could not load. */
  vectorBackend: "sqlite-vec" | "in-process";
  fallbackReason?: string;
  /** Why vectors are off, when they are (no provider, provider failing, identity changed). */
  ftsOnlyReason?: string;
  identityMismatch?: string;
  dirty: boolean;
  indexing: boolean;
  lastSyncAt?: string;
  skipped: { path: string; reason: string }[];
}

export interface MemoryGetResult {
  path: string;
  from: number;
  to: number;
  totalLines: number;
  text: string;
  truncated: boolean;
}

/** A failure the caller should show as is: it names what failed and what to do. */
export class MemoryUnavailableError extends Error {
  constructor(message: string) {
    super(message.startsWith("memory unavailable") ? message : `memory unavailable: ${message}`);
    this.name = "MemoryUnavailableError";
  }
}
