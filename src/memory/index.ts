/**
 * Memory: Markdown files in each agent's workspace are the truth; a per-agent SQLite index
 * (FTS5 + sqlite-vec) makes them searchable. Sits below agents (imports models, config and
 * infra only); the tools reach it through the port they declare. See docs/memory.md.
 */
export { MemoryService, type MemoryServiceOptions } from "./memory-service.js";
export { resolveMemorySettings, resolveEmbeddingSettings, MEMORY_DEFAULTS, type MemorySettings, type EmbeddingSettings } from "./settings.js";
export { createRemoteEmbedder, EmbeddingError } from "./embeddings.js";
export { embedderFromConfig, type ConfiguredEmbedder } from "./embedder-from-config.js";
export { dailyNotesForNewSession } from "./daily-notes.js";
export type { Embedder } from "./embeddings.js";
export type { EmbeddingReadiness } from "./embedding-readiness.js";
export type { SyncProgress, SyncReport } from "./indexer.js";
export type { MemoryGetOutcome } from "./read-memory-file.js";
export { MEMORY_GET_DEFAULT_LINES, MEMORY_GET_MAX_CHARS } from "./read-memory-file.js";
export { MemoryUnavailableError, type MemoryGetResult, type MemorySearchHit, type MemorySearchOptions, type MemorySearchResponse, type MemoryStatus } from "./types.js";
