import type { Candidate } from "./ranking.js";
import { bitQuantizable, toFloat32, type MemoryStore } from "./memory-store.js";
import { ftsMatchExpressions } from "./query-terms.js";

/** How many 1-bit candidates the vector leg re-ranks exactly, per result it returns. */
const BIT_OVERSAMPLING = 4;

/**
 * BM25 over the word index and, for CJK queries, the trigram index: the best `limit` chunks of
 * each, scored relative to that index's best hit (1.0) so the score is comparable with cosine
 * similarity in the merge; a chunk found by both keeps the higher score.
 */
export function textLeg(store: MemoryStore, query: string, limit: number): Candidate[] {
  const match = ftsMatchExpressions(query);
  const found = new Map<number, Candidate>();
  const run = (table: "chunks_fts" | "chunks_fts_cjk", expression: string | undefined) => {
    if (!expression) return;
    const rows = store
      .sql(
        // Rank inside FTS5 first and join only the winners: joining before the LIMIT reads every match's text.
        `SELECT c.rowid AS rowid, c.path AS path, c.start_line AS startLine, c.end_line AS endLine, c.text AS text, t.rank AS rank
         FROM (SELECT rowid, bm25(${table}) AS rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?) t
         JOIN chunks c ON c.rowid = t.rowid ORDER BY t.rank`,
      )
      .all(expression, limit) as (Omit<Candidate, "textScore"> & { rank: number })[];
    const best = rows.length > 0 ? Math.min(...rows.map((r) => r.rank)) : 0;
    for (const { rank, ...row } of rows) {
      const textScore = best < 0 ? rank / best : 1;
      if ((found.get(row.rowid)?.textScore ?? -1) < textScore) found.set(row.rowid, { ...row, textScore });
    }
  };
  run("chunks_fts", match.words);
  run("chunks_fts_cjk", match.cjk);
  return [...found.values()];
}

/**
 * Cosine-nearest chunks through sqlite-vec: a Hamming-distance pass over the 1-bit vectors in
 * `chunks_vec` picks `limit × 4` candidates, whose float vectors are then compared exactly.
 */
export function vecLeg(store: MemoryStore, vector: Float32Array, limit: number): Candidate[] {
  const hits = store
    .sql("SELECT rowid FROM chunks_vec WHERE embedding MATCH vec_quantize_binary(?) AND k = ?")
    .all(bitQuantizable(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)), limit * BIT_OVERSAMPLING) as { rowid: number | bigint }[];
  const ids = hits.map((h) => Number(h.rowid));
  // The exact distances are computed inside SQLite: no vector is copied into JavaScript.
  const top =
    ids.length === 0
      ? []
      : (store
          .sql("SELECT rowid, 1 - vec_distance_cosine(embedding, ?) AS score FROM chunks WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY score DESC LIMIT ?")
          .all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), JSON.stringify(ids), limit) as { rowid: number; score: number }[]);
  const chunks = store.chunksByRowid(top.map((t) => t.rowid));
  return top.flatMap((t) => {
    const chunk = chunks.get(t.rowid);
    return chunk ? [{ rowid: chunk.rowid, path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine, text: chunk.text, vectorScore: Math.max(0, t.score) }] : [];
  });
}

/**
 * The same ranking without sqlite-vec: every stored vector, held in one matrix that is reloaded
 * only after the index changed, compared with the query in process.
 */
export class InProcessVectors {
  private loadedVersion = -1;
  private rowids: number[] = [];
  private matrix = new Float32Array(0);
  private norms = new Float32Array(0);
  private dims = 0;

  search(store: MemoryStore, vector: Float32Array, limit: number): Candidate[] {
    this.load(store);
    if (this.dims !== vector.length) return [];
    let squares = 0;
    for (const x of vector) squares += x * x;
    const queryNorm = Math.sqrt(squares) || 1;
    const scores: { rowid: number; score: number }[] = [];
    for (let row = 0; row < this.rowids.length; row++) {
      let dot = 0;
      const base = row * this.dims;
      for (let d = 0; d < this.dims; d++) dot += this.matrix[base + d]! * vector[d]!;
      scores.push({ rowid: this.rowids[row]!, score: dot / (queryNorm * (this.norms[row]! || 1)) });
    }
    scores.sort((a, b) => b.score - a.score);
    const top = scores.slice(0, limit);
    const chunks = store.chunksByRowid(top.map((t) => t.rowid));
    return top.flatMap((t) => {
      const chunk = chunks.get(t.rowid);
      return chunk ? [{ rowid: chunk.rowid, path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine, text: chunk.text, vectorScore: Math.max(0, t.score) }] : [];
    });
  }

  private load(store: MemoryStore): void {
    if (this.loadedVersion === store.version) return;
    const dims = store.dims ?? 0;
    const rows = store.sql("SELECT rowid, embedding FROM chunks WHERE embedding IS NOT NULL AND dims = ?").all(dims) as { rowid: number; embedding: Buffer }[];
    this.dims = dims;
    this.rowids = rows.map((r) => r.rowid);
    this.matrix = new Float32Array(rows.length * dims);
    this.norms = new Float32Array(rows.length);
    rows.forEach((row, i) => {
      const v = toFloat32(row.embedding);
      this.matrix.set(v, i * dims);
      let sum = 0;
      for (const x of v) sum += x * x;
      this.norms[i] = Math.sqrt(sum);
    });
    this.loadedVersion = store.version;
  }
}

/**
 * Files whose name the query spells out: the full path, or the name without `.md` when it is
 * at least four characters ("2026-11-30", "MEMORY").
 */
export function fileNameMatches(store: MemoryStore, query: string): Set<string> {
  const lower = query.toLowerCase();
  const out = new Set<string>();
  for (const file of store.fileNames()) {
    if (lower.includes(file.lowerPath) || lower.includes(file.lowerBase) || (file.lowerStem.length >= 4 && lower.includes(file.lowerStem))) out.add(file.path);
  }
  return out;
}

/** The first chunk of each named file, for a query that names a file but shares no words with it. */
export function firstChunksOf(store: MemoryStore, paths: Iterable<string>): Candidate[] {
  const select = store.sql("SELECT rowid, path, start_line AS startLine, end_line AS endLine, text FROM chunks WHERE path = ? ORDER BY start_line LIMIT 1");
  return [...paths].flatMap((p) => (select.get(p) as Candidate | undefined) ?? []);
}
