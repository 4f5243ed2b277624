import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { foldText, MAX_QUERY_CHARS, parseSearchQuery } from "../../../../src/sessions/search/search-query.js";
import { SNIPPET_CHARS, snippetAround } from "../../../../src/sessions/search/snippet.js";

/** An FTS5 table like the index's, holding `texts`; `match` runs an expression against it. */
function ftsTable(texts: string[]): (expression: string) => string[] {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')");
  for (const text of texts) db.prepare("INSERT INTO t (text) VALUES (?)").run(text);
  return (expression) => (db.prepare("SELECT text FROM t WHERE t MATCH ? ORDER BY rowid").all(expression) as { text: string }[]).map((r) => r.text);
}

describe("parseSearchQuery", () => {
  const match = ftsTable([
    "the deploy key lives in vault",
    "AND then NEAR(the end) we stopped",
    'she said "hello there" twice',
    "Ärger über die Straße",
    "api.example.com answered 503",
    "key deploy order reversed",
  ]);

  it("every word is required, in any order; a quoted phrase keeps its order", () => {
    expect(match(parseSearchQuery("deploy key")!.match)).toEqual(["the deploy key lives in vault", "key deploy order reversed"]);
    expect(match(parseSearchQuery('"deploy key"')!.match)).toEqual(["the deploy key lives in vault"]);
    expect(match(parseSearchQuery('vault "deploy key"')!.match)).toEqual(["the deploy key lives in vault"]);
  });

  it("FTS syntax in the input is plain text: no input makes the MATCH fail to parse", () => {
    const hostile = [
      "AND",
      "OR NOT",
      "NEAR(the end)",
      '"unbalanced quote',
      'trailing"',
      "deploy*",
      "text:deploy",
      "^deploy",
      "(deploy",
      "deploy)",
      "a + b",
      "\u0000deploy\u0007",
      '""""',
      "'; DROP TABLE t; --",
      "{deploy key}",
      "deploy -key",
    ];
    for (const input of hostile) {
      const query = parseSearchQuery(input);
      if (query) expect(() => match(query.match), input).not.toThrow();
    }
    expect(match(parseSearchQuery("AND")!.match)).toEqual(["AND then NEAR(the end) we stopped"]);
    expect(match(parseSearchQuery("NEAR(the end)")!.match)).toEqual(["AND then NEAR(the end) we stopped"]);
    expect(match(parseSearchQuery("deploy*")!.match)).toEqual(["the deploy key lives in vault", "key deploy order reversed"]);
    expect(match(parseSearchQuery('"hello there')!.match)).toEqual(['she said "hello there" twice']);
  });

  it("punctuation inside a word is split as the index splits it; diacritics and case do not matter", () => {
    expect(match(parseSearchQuery("api.example.com")!.match)).toEqual(["api.example.com answered 503"]);
    expect(match(parseSearchQuery("ARGER strasse")!.match)).toEqual([]);
    expect(match(parseSearchQuery("ärger STRAßE")!.match)).toEqual(["Ärger über die Straße"]);
    expect(match(parseSearchQuery("arger uber")!.match)).toEqual(["Ärger über die Straße"]);
  });

  it("a query without a letter or digit has nothing to search for", () => {
    for (const input of ["", "   ", "-", "* ? !", '""', "🙂 🎉", "\u0000"]) expect(parseSearchQuery(input), input).toBeUndefined();
    // Pieces without words are dropped, the rest still searched.
    expect(parseSearchQuery("deploy - *")!.match).toBe('"deploy"');
  });

  it("keeps the folded words for the snippet, and at most 32 pieces of at most MAX_QUERY_CHARS characters", () => {
    expect(parseSearchQuery('Ärger "Deploy KEY"')!.words).toEqual(["arger", "deploy", "key"]);
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    expect(parseSearchQuery(many)!.match.split(" ")).toHaveLength(32);
    const long = `${"x".repeat(MAX_QUERY_CHARS)} beyond`;
    expect(parseSearchQuery(long)!.words).toEqual(["x".repeat(MAX_QUERY_CHARS)]);
  });

  it("foldText lowercases and strips diacritics", () => {
    expect(foldText("Ärger ÜBER Crème")).toBe("arger uber creme");
  });
});

describe("snippetAround", () => {
  it("a short text is the whole text, whitespace runs made one space", () => {
    expect(snippetAround("the deploy\n\n  key", ["key"])).toBe("the deploy key");
  });

  it("a long text is cut around the first matching whole word, between words, with … where text was left out", () => {
    const before = "lorem ipsum ".repeat(40);
    const after = " dolor sit amet".repeat(40);
    const text = `${before}the locker number is 4471${after}`;
    const snippet = snippetAround(text, ["locker"]);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).toContain("the locker number is 4471");
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_CHARS + 2);
    // Cut between words: no fragment of "lorem"/"ipsum"/"dolor" at either end.
    expect(snippet.slice(1, -1).trim().split(" ")[0]).toMatch(/^(lorem|ipsum)$/);
    expect(snippet.slice(1, -1).trim().split(" ").at(-1)).toMatch(/^(dolor|sit|amet)$/);
  });

  it("matches whole words only, ignoring case and diacritics", () => {
    const text = `${"keyboard keys ".repeat(30)}KEY found${" tail".repeat(80)}`;
    expect(snippetAround(text, ["key"])).toContain("KEY found");
    const accented = `${"x ".repeat(200)}Ärger here${" y".repeat(200)}`;
    expect(snippetAround(accented, ["arger"])).toContain("Ärger here");
  });

  it("without a matching word it is the text's start; never a lone surrogate half", () => {
    const text = `${"🙂".repeat(400)}`;
    const snippet = snippetAround(text, ["absent"]);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet.startsWith("🙂")).toBe(true);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(snippet)).toBe(false);
  });
});
