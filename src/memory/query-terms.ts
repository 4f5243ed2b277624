/** Queries longer than this are cut before anything else looks at them. */
export const MAX_QUERY_CHARS = 4_000;
const MAX_TERMS = 32;

const STOPWORDS = new Set(
  (
    "the and for are was were what when where which who whom why how does did has have had this that these those with from into " +
    "about over under you your yours our ours their theirs they them she her his him its not but can could should would will " +
    "shall may might must any all some than then there here just also very been being is am an of to in on at by or as it be do we i me my a"
  ).split(" "),
);

const CJK_RUN = /^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+$/;

/**
 * The terms of a query, lowercase: `words` for the word index (stopwords and one-letter words
 * dropped) and `cjk`, overlapping three-character pieces of each CJK run for the trigram index
 * (CJK text has no spaces to split on). Nothing of the query's own syntax survives.
 */
export function queryTerms(query: string): { words: string[]; cjk: string[] } {
  const found =
    query
      .slice(0, MAX_QUERY_CHARS)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const words = new Set<string>();
  const cjk = new Set<string>();
  for (const found_ of found) {
    for (const part of splitScripts(found_)) {
      if (words.size + cjk.size >= MAX_TERMS) break;
      if (CJK_RUN.test(part)) {
        const chars = [...part];
        for (let i = 0; i + 3 <= chars.length; i++) cjk.add(chars.slice(i, i + 3).join(""));
      } else if ([...part].length >= 2 && !STOPWORDS.has(part)) words.add(part);
    }
  }
  return { words: [...words], cjk: [...cjk] };
}

/**
 * FTS5 MATCH expressions for the query: each term a quoted string (so `"`, `*`, `NEAR(`, `AND`,
 * `OR` are plain text), joined with OR so any term can match and BM25 ranks. Undefined where no
 * term is left.
 */
export function ftsMatchExpressions(query: string): { words?: string; cjk?: string } {
  const terms = queryTerms(query);
  const expression = (list: string[]) => (list.length === 0 ? undefined : list.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR "));
  const words = expression(terms.words);
  const cjk = expression(terms.cjk);
  return { ...(words ? { words } : {}), ...(cjk ? { cjk } : {}) };
}

/** "部署key" → ["部署", "key"]: a CJK run and a Latin run inside one word are different terms. */
function splitScripts(word: string): string[] {
  return word.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/g) ?? [];
}

/** Lowercase word set of a text, for MMR's Jaccard similarity. */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}
