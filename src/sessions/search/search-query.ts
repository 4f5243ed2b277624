/** The longest query accepted, in characters (as OpenClaw). */
export const MAX_QUERY_CHARS = 4_096;

/** Words and phrases one query may hold; any beyond are left out. */
const MAX_TERMS = 32;

/** A bare word, or a "quoted phrase" (an unclosed quote runs to the end). */
const PIECE = /"([^"]*)(?:"|$)|([^\s"]+)/g;
const WORD = /[\p{L}\p{N}]+/gu;

export interface SearchQuery {
  /** The FTS5 MATCH expression: every word and phrase one quoted string, all of them required. */
  match: string;
  /** The query's words, folded (foldText), to find where a hit's text matches. */
  words: string[];
}

/**
 * A user's query as a safe FTS5 expression: each bare word and each "quoted phrase" becomes one
 * FTS5 string (inner `"` doubled), so nothing the user types — `AND`, `NEAR(`, `*`, `:`, `^`,
 * an unbalanced quote — is FTS syntax, and no input can make the MATCH fail to parse. The
 * strings are joined by spaces, FTS5's implicit AND: a hit holds every word and phrase. A piece
 * without a letter or digit would be an empty phrase and is dropped; undefined when nothing is
 * left to search for.
 */
export function parseSearchQuery(input: string): SearchQuery | undefined {
  const pieces: string[] = [];
  // Control characters are never part of a word; as spaces they cannot reach the expression.
  const text = input.slice(0, MAX_QUERY_CHARS).replace(/\p{Cc}/gu, " ");
  for (const found of text.matchAll(PIECE)) {
    const piece = (found[1] ?? found[2] ?? "").trim().replace(/\s+/g, " ");
    if (!/[\p{L}\p{N}]/u.test(piece)) continue;
    pieces.push(piece);
    if (pieces.length >= MAX_TERMS) break;
  }
  if (pieces.length === 0) return undefined;
  const words = new Set(pieces.flatMap((piece) => foldText(piece).match(WORD) ?? []));
  return { match: pieces.map((piece) => `"${piece.replace(/"/g, '""')}"`).join(" "), words: [...words] };
}

/**
 * Lowercase without diacritics, as the index's tokenizer compares words
 * (`unicode61 remove_diacritics 2`): "Ärger" and "arger" are the same word.
 */
export function foldText(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
}
