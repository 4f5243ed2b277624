/** Queries longer than this are cut before anything else looks at them. */
export const MAX_QUERY_CHARS = 4_000;
const MAX_TERMS = 32;

const STOPWORDS = new Set(
  ("the and for are was were what when where which who whom why how does did has have had this that these those with from into " +
    "about over under you your yours our ours their theirs they them she her his him its not but can could should would will " +
    "shall may might must any all some than then there here just also very been being is am an of to in on at by or as it be do we i me my a").split(" "),
);

const CJK_RUN = /^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+$/;

/**
 * The words of a query as lowercase terms: stopwords and one- or two-letter words dropped
 * (the trigram index cannot match them), CJK runs split into overlapping three-character
 * pieces (CJK text has no spaces to split on). Nothing of the query's own syntax survives.
 */
export function queryTerms(query: string): string[] {
  const words = query.slice(0, MAX_QUERY_CHARS).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = new Set<string>();
  for (const word of words) {
    for (const part of splitScripts(word)) {
      if (CJK_RUN.test(part)) {
        const chars = [...part];
        if (chars.length < 3) continue;
        for (let i = 0; i + 3 <= chars.length; i++) terms.add(chars.slice(i, i + 3).join(""));
      } else if ([...part].length >= 3 && !STOPWORDS.has(part)) terms.add(part);
      if (terms.size >= MAX_TERMS) return [...terms];
    }
  }
  return [...terms];
}

/**
 * An FTS5 MATCH expression for the query: each term a quoted string (so `"`, `*`, `NEAR(`,
 * `AND`, `OR` are plain text), joined with OR so any term can match and BM25 ranks. Undefined
 * when no term is left.
 */
export function ftsMatchExpression(query: string): string | undefined {
  const terms = queryTerms(query);
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(" OR ");
}

/** "部署key" → ["部署", "key"]: a CJK run and a Latin run inside one word are different terms. */
function splitScripts(word: string): string[] {
  return word.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/g) ?? [];
}

/** Lowercase word set of a text, for MMR's Jaccard similarity. */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}
