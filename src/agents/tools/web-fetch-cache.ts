import { AnswerCache } from "./answer-cache.js";
import { toolText } from "../tool-result.js";
import type { ToolResult } from "../types.js";

/** A successful web_fetch answer. */
interface CachedFetch {
  text: string;
  details: Record<string, unknown>;
}

/**
 * Successful web_fetch answers, shared by every web_fetch tool of the process: the gateway builds
 * tool objects per option set and per direct invocation, and the cache outlives them. Bounded to
 * 100 answers and 20 million characters; the least recently used go first.
 */
const answers = new AnswerCache<CachedFetch>({ max: 100, maxSize: 20_000_000, sizeOf: (entry) => entry.text.length + 1 });

/**
 * The cache key: the URL and everything that shapes a successful answer (the characters asked
 * for, the download and redirect limits, the User-Agent, whether private addresses were allowed).
 */
export function webFetchCacheKey(parts: {
  url: string;
  maxChars: number;
  maxResponseBytes: number;
  maxRedirects: number;
  userAgent: string;
  allowPrivate: boolean;
  extractMode: string;
  readability: boolean;
}): string {
  return JSON.stringify([parts.url, parts.maxChars, parts.maxResponseBytes, parts.maxRedirects, parts.userAgent, parts.allowPrivate, parts.extractMode, parts.readability]);
}

/** A cached answer younger than `ttlMs` (the current TTL, also when it was stored under a longer one), marked as cached. */
export function cachedWebFetch(key: string, ttlMs: number, now = Date.now()): ToolResult | undefined {
  const kept = answers.get(key, ttlMs, now);
  if (!kept) return undefined;
  return toolText(`${kept.value.text}\n[Cached: fetched ${describeAge(kept.ageMs)} ago; the page was not fetched again.]`, { ...kept.value.details, cached: true });
}

/** Keeps a successful answer for `ttlMs`; errors are never kept. */
export function rememberWebFetch(key: string, result: ToolResult, ttlMs: number, now = Date.now()): void {
  const block = result.content[0];
  if (result.isError || result.content.length !== 1 || block?.type !== "text") return;
  answers.set(key, { text: block.text, details: { ...(result.details as Record<string, unknown> | undefined) } }, ttlMs, now);
}

function describeAge(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
}
