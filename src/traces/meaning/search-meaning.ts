import type { OpenClawConfig } from "../../config/index.js";
import { parseSearchQuery, snippetAround } from "../../sessions/search/index.js";
import { meaningSearchEnabled } from "../settings.js";
import type { TraceSearchHit, TraceSearchQuery } from "../trace-store.js";
import { traceText } from "../trace-text.js";
import type { TextEmbedder } from "./trace-embedding.js";
import type { TraceVectors } from "./trace-vectors.js";

/** A meaning search that cannot be done as asked (off, no embedding provider): the caller's to fix. */
export class MeaningSearchRefusal extends Error {}

/** Traces nearest a query's meaning, and how many of the stored traces have a vector yet. */
export interface MeaningSearchResult {
  results: (TraceSearchHit & { score: number })[];
  coverage: { embedded: number; traces: number };
}

/** A meaning search: the word search's query, and the lowest score a trace may have to be listed (0-1; none: every nearest trace). */
export type MeaningSearchQuery = TraceSearchQuery & { minScore?: number };

export type ConfiguredTextEmbedder = { embedder: TextEmbedder } | { reason: string };

/** The embedder meaning search uses under `config`; a MeaningSearchRefusal saying what to set when there is none. */
export function meaningEmbedder(config: OpenClawConfig, configured: ConfiguredTextEmbedder | undefined): TextEmbedder {
  if (!meaningSearchEnabled(config))
    throw new MeaningSearchRefusal("meaning search is off: set diagnostics.traces.search.embeddings: true (it embeds every trace with memory.search's provider)");
  if (!configured || "reason" in configured) throw new MeaningSearchRefusal(`meaning search has no embedder: ${configured?.reason ?? "none is wired"}`);
  return configured.embedder;
}

/**
 * The traces whose vectors are nearest `vector` (the query's, from `embedder`), each with a passage
 * of its text; with `minScore`, only those scoring at least that (the nearest come first, so those
 * left are the ones a filter before the limit would have kept).
 */
export function nearestTraces(vectors: TraceVectors, embedder: TextEmbedder, vector: Float32Array, query: MeaningSearchQuery): MeaningSearchResult {
  const words = parseSearchQuery(query.query)?.words ?? [];
  const nearest = vectors.nearest(embedder.key, vector, {
    ...(query.sessionKey ? { sessionKey: query.sessionKey } : {}),
    ...(query.since !== undefined ? { since: query.since } : {}),
    limit: query.limit ?? 20,
  });
  const kept = query.minScore === undefined ? nearest : nearest.filter((hit) => hit.score >= query.minScore!);
  return {
    results: kept.map(({ record, ...hit }) => ({ ...hit, snippet: snippetAround(traceText(record), words) })),
    coverage: vectors.coverage(embedder.key),
  };
}
