import { AnswerCache } from "../answer-cache.js";
import type { SearchOutput } from "./search-output.js";

/** web_search's answers in this process, by provider, endpoint and query (see AnswerCache for the TTL rule). */
const kept = new AnswerCache<SearchOutput>({ max: 200 });

export function keptAnswer(key: string, ttlMs: number, now = Date.now()): SearchOutput | undefined {
  return kept.get(key, ttlMs, now)?.value;
}

export function keepAnswer(key: string, output: SearchOutput, ttlMs: number, now = Date.now()): void {
  kept.set(key, output, ttlMs, now);
}
