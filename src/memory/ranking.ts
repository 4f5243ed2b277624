import { wordSet } from "./query-terms.js";

/** A chunk found by either leg, with its normalized leg scores (0–1; absent = not found by it). */
export interface Candidate {
  rowid: number;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  vectorScore?: number;
  textScore?: number;
}

export interface RankOptions {
  vectorWeight: number;
  textWeight: number;
  /** False when there is no usable query vector: the text leg then carries the full weight. */
  vectorActive: boolean;
  fileNameMatches: ReadonlySet<string>;
  decay: { enabled: boolean; halfLifeDays: number };
  mmr: { enabled: boolean; lambda: number };
  minScore: number;
  maxResults: number;
  now: Date;
}

export interface RankedChunk extends Candidate {
  score: number;
}

/** Added to the score of a file the query names: more than any merged score (at most 1), so it ranks first. */
const FILE_NAME_BOOST = 2;
const DAILY_NOTE = /(?:^|\/)memory\/(?:.*\/)?(\d{4})-(\d{2})-(\d{2})(?:-[^/]*)?\.md$/;
const DAY_MS = 86_400_000;

/**
 * Weighted merge of the two legs (weights renormalized to sum to 1), the `minScore` filter on
 * that relevance, recency decay for dated daily notes, the file-name boost, then MMR to spread
 * the results over different chunks, capped at `maxResults`.
 */
export function rankCandidates(candidates: readonly Candidate[], options: RankOptions): RankedChunk[] {
  const vectorWeight = options.vectorActive ? options.vectorWeight : 0;
  const total = vectorWeight + options.textWeight || 1;
  const wv = vectorWeight / total;
  const wt = options.vectorActive ? options.textWeight / total : 1;

  // minScore judges relevance; the decay only orders what is relevant, so a fact written down
  // months ago is still found when nothing newer matches.
  const kept = candidates
    .map((c) => ({ ...c, relevance: wv * (c.vectorScore ?? 0) + wt * (c.textScore ?? 0) }))
    .filter((c) => c.relevance >= options.minScore || options.fileNameMatches.has(c.path))
    .map(({ relevance, ...c }) => {
      let score = relevance * decayFactor(c.path, options);
      // A query naming a file ("what's in 2026-11-30", "MEMORY.md") wants that file first, however old.
      if (options.fileNameMatches.has(c.path)) score += FILE_NAME_BOOST;
      return { ...c, score };
    })
    .sort((a, b) => b.score - a.score);
  const ranked = options.mmr.enabled ? diversify(kept, options.mmr.lambda, options.maxResults) : kept.slice(0, options.maxResults);
  return ranked.map((c) => ({ ...c, score: Math.min(1, c.score) }));
}

/** Half-life decay by the date in a daily note's name; undated files (MEMORY.md, USER.md …) keep their score. */
export function decayFactor(path: string, options: Pick<RankOptions, "decay" | "now">): number {
  if (!options.decay.enabled) return 1;
  const match = DAILY_NOTE.exec(path);
  if (!match) return 1;
  const dated = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(dated)) return 1;
  const ageDays = Math.max(0, (options.now.getTime() - dated) / DAY_MS - 1);
  return 0.5 ** (ageDays / options.decay.halfLifeDays);
}

/** Maximal marginal relevance: λ·relevance − (1−λ)·(highest Jaccard similarity to what is already picked). */
function diversify(sorted: RankedChunk[], lambda: number, limit: number): RankedChunk[] {
  const words = new Map(sorted.map((c) => [c.rowid, wordSet(c.text)]));
  const picked: RankedChunk[] = [];
  const rest = [...sorted];
  while (picked.length < limit && rest.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    rest.forEach((c, index) => {
      const similarity = picked.reduce((max, p) => Math.max(max, jaccard(words.get(c.rowid)!, words.get(p.rowid)!)), 0);
      const value = lambda * c.score - (1 - lambda) * similarity;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    picked.push(rest.splice(bestIndex, 1)[0]!);
  }
  return picked;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const word of small) if (large.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}
