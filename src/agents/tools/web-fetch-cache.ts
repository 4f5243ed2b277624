import { LRUCache } from "lru-cache";
import { toolText } from "../tool-result.js";
import type { ToolResult } from "../types.js";

/** A successful web_fetch answer and when it was fetched. */
interface CachedFetch {
  text: string;
  details: Record<string, unknown>;
  fetchedAt: number;
}

/**
 * Successful web_fetch answers, shared by every web_fetch tool of the process: the gateway builds
 * tool objects per option set and per direct invocation, and the cache outlives them. Bounded to
 * 100 answers and 20 million characters; the least recently used go first.
 */
const answers = new LRUCache<string, CachedFetch>({ max: 100, maxSize: 20_000_000, sizeCalculation: (entry) => entry.text.length + 1 });

/**
 * The cache key: the URL and everything that shapes a successful answer (the characters asked
 * for, the download and redirect limits, the User-Agent, whether private addresses were allowed).
 */
export function webFetchCacheKey(parts: { url: string; maxChars: number; maxResponseBytes: number; maxRedirects: number; userAgent: string; allowPrivate: boolean }): string {
  return JSON.stringify([parts.url, parts.maxChars, parts.maxResponseBytes, parts.maxRedirects, parts.userAgent, parts.allowPrivate]);
}

/** A cached answer younger than `ttlMs` (the current TTL, also when it was stored under a longer one), marked as cached. */
export function cachedWebFetch(key: string, ttlMs: number, now = Date.now()): ToolResult | undefined {
  const entry = answers.get(key);
  if (!entry) return undefined;
  const ageMs = now - entry.fetchedAt;
  if (ageMs >= ttlMs) return undefined;
  return toolText(`${entry.text}\n[Cached: fetched ${describeAge(ageMs)} ago; the page was not fetched again.]`, { ...entry.details, cached: true });
}

/** Keeps a successful answer for `ttlMs`; errors are never kept. */
export function rememberWebFetch(key: string, result: ToolResult, ttlMs: number, now = Date.now()): void {
  const block = result.content[0];
  if (result.isError || result.content.length !== 1 || block?.type !== "text") return;
  answers.set(key, { text: block.text, details: { ...(result.details as Record<string, unknown> | undefined) }, fetchedAt: now }, { ttl: ttlMs });
}

function describeAge(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
}
