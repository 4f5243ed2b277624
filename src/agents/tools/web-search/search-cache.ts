import { LRUCache } from "lru-cache";
import type { SearchResultsOutput } from "./search-output.js";

/**
 * Answers kept in this process, by provider, endpoint and query. An entry is reused only while it
 * is younger than the TTL in force when it is read: a shorter TTL limits reuse of what is already
 * kept, a longer one never stretches an entry past the TTL it was stored with.
 */
const kept = new LRUCache<string, { output: SearchResultsOutput; storedAt: number }>({ max: 200 });

export function keptAnswer(key: string, ttlMs: number, now = Date.now()): SearchResultsOutput | undefined {
  if (ttlMs <= 0) return undefined;
  const entry = kept.get(key);
  return entry && now - entry.storedAt <= ttlMs ? entry.output : undefined;
}

export function keepAnswer(key: string, output: SearchResultsOutput, ttlMs: number, now = Date.now()): void {
  if (ttlMs <= 0) return;
  kept.set(key, { output, storedAt: now }, { ttl: ttlMs });
}
