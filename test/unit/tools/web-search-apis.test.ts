import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate.js";
import { webSearchSetup } from "../../../src/agents/tools/web-search/web-search-setup.js";
import { createWebSearchTool } from "../../../src/agents/tools/web-search.js";
import type { WebSearchHost } from "../../../src/agents/types.js";
import { startFakeSearchApiServer, type FakeSearchApiServer } from "../../fakes/search-api-server.js";
import { errorOf, makeContext, makeTempDir, neverAborted, textOf } from "./helpers.js";

/** Perplexity (Search API and Sonar), Exa and Gemini: which is picked, how it is asked, what the model gets. */

let fake: FakeSearchApiServer;
beforeAll(async () => {
  fake = await startFakeSearchApiServer();
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failWith = {};
});

function setup(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  return webSearchSetup(validateConfig(raw, env).config, env);
}
function hostFor(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): WebSearchHost {
  const found = setup({ ...raw, tools: { web: { search: { cacheTtlMinutes: 0, ...(raw.tools as { web?: { search?: object } })?.web?.search } } } }, env);
  if (!found.host) throw new Error(`no host: ${found.problem}`);
  return found.host;
}
const run = (host: WebSearchHost, args: Record<string, unknown>) => createWebSearchTool().execute(args as never, makeContext(makeTempDir(), { webSearch: host }), neverAborted);
const outputOf = async (host: WebSearchHost, args: Record<string, unknown>) => JSON.parse(textOf(await run(host, args)));

describe("Perplexity's key and path", () => {
  it("PERPLEXITY_API_KEY is the Search API (results); OPENROUTER_API_KEY is Sonar through OpenRouter (an answer)", () => {
    expect(setup({}, { PERPLEXITY_API_KEY: "pplx-1" }).host).toMatchObject({ provider: "perplexity", answers: false });
    expect(setup({}, { OPENROUTER_API_KEY: "sk-or-1" }).host).toMatchObject({ provider: "perplexity", answers: true });
    // Both: the Perplexity key is read first.
    expect(setup({}, { PERPLEXITY_API_KEY: "pplx-1", OPENROUTER_API_KEY: "sk-or-1" }).host?.answers).toBe(false);
  });

  it("a configured key wins over the environment, its prefix picking the path; a baseUrl or model always means Sonar", () => {
    const entry = (webSearch: Record<string, unknown>) => ({ plugins: { entries: { perplexity: { config: { webSearch } } } } });
    expect(setup(entry({ apiKey: "sk-or-configured" }), { PERPLEXITY_API_KEY: "pplx-env" }).host?.answers).toBe(true);
    expect(setup(entry({ apiKey: "pplx-configured" }), { OPENROUTER_API_KEY: "sk-or-env" }).host?.answers).toBe(false);
    expect(setup(entry({ apiKey: "pplx-configured", model: "sonar" })).host?.answers).toBe(true);
    expect(setup(entry({ apiKey: "pplx-configured", baseUrl: fake.url })).host?.answers).toBe(true);
  });

  it("comes after Brave and Grok and before Tavily in auto-detection; pinned without a key, it is not offered and says what to set", () => {
    const env = { PERPLEXITY_API_KEY: "pplx-1", TAVILY_API_KEY: "t" };
    expect(setup({}, env).host?.provider).toBe("perplexity");
    expect(setup({}, { ...env, XAI_API_KEY: "x" }).host?.provider).toBe("grok");
    expect(setup({}, { ...env, BRAVE_API_KEY: "b" }).host?.provider).toBe("brave");
    const pinned = validateConfig({ tools: { web: { search: { provider: "perplexity" } } } }, { TAVILY_API_KEY: "t" });
    expect(webSearchSetup(pinned.config, { TAVILY_API_KEY: "t" }).problem).toContain('"perplexity" but no API key is set');
    expect(pinned.warnings).toContainEqual(expect.stringContaining('tools.web.search.provider is "perplexity" but no API key is set'));
  });
});

describe("Perplexity's Search API", () => {
  const env = () => ({ PERPLEXITY_API_KEY: fake.keys.perplexity, PERPLEXITY_SEARCH_BASE_URL: fake.url });

  it("POSTs the query and its filters with the key as a bearer token and gives wrapped results", async () => {
    fake.perplexity.results = [{ title: "Perplexity hit", url: "https://p.example/1", snippet: "structured", date: "2026-11-01", last_updated: "2026-11-02" }];
    const output = await outputOf(hostFor({}, env()), { query: "solar", count: 3, country: "de", language: "DE", date_after: "2026-01-05", date_before: "2026-02-01" });
    expect(output).toMatchObject({ kind: "results", provider: "perplexity", count: 1, results: [{ url: "https://p.example/1", published: "2026-11-01" }] });
    expect(output.results[0].snippet).toContain("<<<BEGIN_UNTRUSTED_WEB_CONTENT>>>\nstructured");
    expect(fake.requests[0]).toMatchObject({ provider: "perplexity", path: "/search", headers: { authorization: `Bearer ${fake.keys.perplexity}` } });
    expect(fake.requests[0]!.body).toEqual({
      query: "solar",
      max_results: 3,
      country: "DE",
      search_language_filter: ["de"],
      search_after_date_filter: "1/5/2026",
      search_before_date_filter: "2/1/2026",
    });
    await run(hostFor({}, env()), { query: "recent", freshness: "week" });
    expect(fake.requests[1]!.body).toMatchObject({ search_recency_filter: "week" });
  });

  it("refuses what it has no setting for, and a refused key names where it is set without showing it", async () => {
    expect(errorOf(await run(hostFor({}, env()), { query: "q", region: "us-en" })).message).toContain("region is not supported by perplexity");
    const refused = await outputOf(hostFor({}, { ...env(), PERPLEXITY_API_KEY: "pplx-wrong-secret" }), { query: "q" });
    expect(refused).toMatchObject({ kind: "error", provider: "perplexity" });
    expect(refused.message).toContain("HTTP 401");
    expect(refused.message).toContain("PERPLEXITY_API_KEY");
    expect(JSON.stringify(refused)).not.toContain("pplx-wrong-secret");
    expect(JSON.stringify(refused)).not.toContain("Invalid API key");
  });
});

describe("Perplexity's Sonar path", () => {
  it("asks chat completions at the configured base with the model, and gives one wrapped answer with its citations", async () => {
    fake.sonar = { answer: "Sonar says so.", citations: ["https://cited.example/a", "javascript:alert(1)"] };
    const host = hostFor({ plugins: { entries: { perplexity: { config: { webSearch: { apiKey: fake.keys.sonar, baseUrl: fake.url } } } } } });
    const output = await outputOf(host, { query: "why", count: 2, freshness: "day" });
    expect(output).toMatchObject({ kind: "answer", provider: "perplexity", query: "why", citations: [{ url: "https://cited.example/a" }] });
    expect(output.content).toBe("<<<BEGIN_UNTRUSTED_WEB_CONTENT>>>\nSonar says so.\n<<<END_UNTRUSTED_WEB_CONTENT>>>");
    expect(fake.requests[0]).toMatchObject({ provider: "sonar", path: "/chat/completions", headers: { authorization: `Bearer ${fake.keys.sonar}` } });
    expect(fake.requests[0]!.body).toEqual({ model: "perplexity/sonar-pro", messages: [{ role: "user", content: "why" }], search_recency_filter: "day" });
    expect(errorOf(await run(host, { query: "q", country: "US", date_after: "2026-01-01" })).message).toContain(
      "country, date_after are not supported by perplexity through Sonar chat completions",
    );
  });
});

describe("Exa", () => {
  const exa = (webSearch: Record<string, unknown> = {}) =>
    hostFor({ plugins: { entries: { exa: { config: { webSearch: { baseUrl: fake.url, ...webSearch } } } } } }, { EXA_API_KEY: fake.keys.exa });

  it("comes after Perplexity and before Tavily in auto-detection; its configured key wins over EXA_API_KEY", () => {
    expect(setup({}, { EXA_API_KEY: "e", TAVILY_API_KEY: "t" }).host?.provider).toBe("exa");
    expect(setup({}, { EXA_API_KEY: "e", PERPLEXITY_API_KEY: "p" }).host?.provider).toBe("perplexity");
    const pinned = validateConfig({ tools: { web: { search: { provider: "exa" } } } }, {});
    expect(pinned.warnings).toContainEqual(expect.stringContaining('tools.web.search.provider is "exa" but no API key is set'));
    expect(webSearchSetup(pinned.config, {}).problem).toContain("EXA_API_KEY");
  });

  it("POSTs the query with the key in x-api-key, asks for highlights, and turns them into the snippet", async () => {
    fake.exa.results = [
      { title: "Exa page", url: "https://exa.example/a", publishedDate: "2026-10-10T00:00:00.000Z", highlights: ["first key sentence", "second"], summary: "unused" },
      { title: "", url: "https://exa.example/b", summary: "a summary" },
      { title: "Text only", url: "https://exa.example/c", text: "the full text" },
    ];
    const output = await outputOf(exa(), { query: "neural", count: 3, date_after: "2026-01-01", date_before: "2026-06-30" });
    expect(output).toMatchObject({ kind: "results", provider: "exa", count: 3 });
    expect(output.results.map((r: { snippet: string }) => r.snippet)).toEqual([
      expect.stringContaining("first key sentence … second"),
      expect.stringContaining("a summary"),
      expect.stringContaining("the full text"),
    ]);
    expect(output.results[1].title).toContain("https://exa.example/b");
    expect(output.results[0].published).toBe("2026-10-10T00:00:00.000Z");
    expect(fake.requests[0]).toMatchObject({ provider: "exa", path: "/search", headers: { "x-api-key": fake.keys.exa } });
    expect(fake.requests[0]!.body).toEqual({
      query: "neural",
      numResults: 3,
      type: "auto",
      contents: { highlights: true },
      startPublishedDate: "2026-01-01T00:00:00.000Z",
      endPublishedDate: "2026-06-30T23:59:59.999Z",
    });
  });

  it("keeps a base URL that already ends in /search, refuses what Exa has no setting for, and never shows the key", async () => {
    await run(exa({ baseUrl: `${fake.url}/search` }), { query: "path", freshness: "week" });
    expect(fake.requests[0]!.path).toBe("/search");
    expect(Date.parse(String(fake.requests[0]!.body.startPublishedDate))).toBeGreaterThan(Date.now() - 8 * 86_400_000);
    expect(errorOf(await run(exa(), { query: "q", country: "DE" })).message).toContain("country is not supported by exa");
    const refused = await outputOf(
      hostFor({ plugins: { entries: { exa: { config: { webSearch: { apiKey: "exa-wrong-secret", baseUrl: fake.url } } } } } }, { EXA_API_KEY: fake.keys.exa }),
      { query: "q" },
    );
    expect(refused).toMatchObject({ kind: "error", provider: "exa", message: expect.stringContaining("plugins.entries.exa.config.webSearch.apiKey or EXA_API_KEY") });
    expect(JSON.stringify(refused)).not.toContain("exa-wrong-secret");
  });
});

describe("Gemini", () => {
  const google = (webSearch: Record<string, unknown> = {}) =>
    hostFor({ plugins: { entries: { google: { config: { webSearch: { apiKey: fake.keys.gemini, baseUrl: `${fake.url}/v1beta/`, ...webSearch } } } } } });

  it("comes after Brave and before Grok; its key is webSearch.apiKey, else GEMINI_API_KEY, else models.providers.google.apiKey", () => {
    expect(setup({}, { GEMINI_API_KEY: "g", XAI_API_KEY: "x" }).host).toMatchObject({ provider: "gemini", answers: true });
    expect(setup({}, { GEMINI_API_KEY: "g", BRAVE_API_KEY: "b" }).host?.provider).toBe("brave");
    expect(
      setup({ models: { providers: { google: { api: "openai-completions", baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai", apiKey: "model-key" } } } }).host
        ?.provider,
    ).toBe("gemini");
    const pinned = validateConfig({ tools: { web: { search: { provider: "gemini" } } } }, {});
    expect(pinned.warnings).toContainEqual(expect.stringContaining('tools.web.search.provider is "gemini" but no API key is set'));
    expect(webSearchSetup(pinned.config, {}).problem).toContain("GEMINI_API_KEY");
  });

  it("asks generateContent with the google_search tool and the key in x-goog-api-key; the answer cites the grounding sources", async () => {
    fake.gemini = { answer: "Grounded answer.", sources: [{ uri: "https://source.example/1", title: "source.example" }, { uri: "ftp://x.example/" }] };
    const output = await outputOf(google({ model: "gemini-test" }), { query: "grounded", count: 7 });
    expect(output).toMatchObject({ kind: "answer", provider: "gemini", query: "grounded", citations: [{ url: "https://source.example/1" }] });
    expect(output.citations).toHaveLength(1);
    expect(output.citations[0].title).toContain("source.example");
    expect(output.content).toBe("<<<BEGIN_UNTRUSTED_WEB_CONTENT>>>\nGrounded answer.\n<<<END_UNTRUSTED_WEB_CONTENT>>>");
    expect(fake.requests[0]).toMatchObject({ provider: "gemini", path: "/v1beta/models/gemini-test:generateContent", headers: { "x-goog-api-key": fake.keys.gemini } });
    expect(fake.requests[0]!.body).toEqual({ contents: [{ parts: [{ text: "grounded" }] }], tools: [{ google_search: {} }] });
  });

  it("a day's freshness is a recency instruction, longer ones and dates the timeRangeFilter; country and language are refused", async () => {
    await run(google(), { query: "today", freshness: "day" });
    expect(fake.requests[0]!.body).toMatchObject({
      contents: [{ parts: [{ text: expect.stringMatching(/^today\n\nSearch recency instruction: /) }] }],
      tools: [{ google_search: {} }],
    });
    await run(google(), { query: "range", date_after: "2026-03-01", date_before: "2026-03-31" });
    expect(fake.requests[1]!.body.tools).toEqual([{ google_search: { timeRangeFilter: { startTime: "2026-03-01T00:00:00Z", endTime: "2026-04-01T00:00:00Z" } } }]);
    await run(google(), { query: "month", freshness: "month" });
    const range = (fake.requests[2]!.body.tools as { google_search: { timeRangeFilter: { startTime: string; endTime: string } } }[])[0]!.google_search.timeRangeFilter;
    expect(Date.parse(range.endTime) - Date.parse(range.startTime)).toBe(30 * 86_400_000);
    expect(errorOf(await run(google(), { query: "q", country: "US", language: "en" })).message).toContain("country, language are not supported by gemini");
  });

  it("a refused key names where it is set without showing it; no text is an error naming the reason", async () => {
    const refused = await outputOf(google({ apiKey: "gemini-wrong-secret" }), { query: "q" });
    expect(refused).toMatchObject({ kind: "error", provider: "gemini", message: expect.stringContaining("HTTP 403") });
    expect(refused.message).toContain("GEMINI_API_KEY");
    expect(JSON.stringify(refused)).not.toContain("gemini-wrong-secret");
    fake.gemini = { answer: "", sources: [] };
    expect((await outputOf(google(), { query: "empty" })).message).toContain("Gemini gave no answer (STOP)");
  });
});

describe("falling back to the next auto-detected provider", () => {
  const env = () => ({ GEMINI_API_KEY: fake.keys.gemini, PERPLEXITY_API_KEY: fake.keys.perplexity, PERPLEXITY_SEARCH_BASE_URL: fake.url, EXA_API_KEY: fake.keys.exa });
  const auto = () =>
    hostFor({ plugins: { entries: { google: { config: { webSearch: { baseUrl: `${fake.url}/v1beta` } } }, exa: { config: { webSearch: { baseUrl: fake.url } } } } } }, env());

  it("asks the next one when the first fails, says which answered and summarizes the failure without the key or its body", async () => {
    fake.failWith = { gemini: 500 };
    fake.perplexity.results = [{ title: "Fallback hit", url: "https://fallback.example/", snippet: "from perplexity" }];
    const result = await run(auto(), { query: "fall back" });
    const output = JSON.parse(textOf(result));
    expect(output).toMatchObject({ kind: "results", provider: "perplexity", count: 1 });
    expect(output.fallbackFrom).toEqual([{ provider: "gemini", message: 'gemini search for "fall back" failed: HTTP 500 Internal Server Error' }]);
    expect(result.details).toMatchObject({ provider: "perplexity", fallbackFrom: ["gemini"] });
    expect(fake.requests.map((r) => r.provider)).toEqual(["gemini", "perplexity"]);
    expect(textOf(result)).not.toContain(fake.keys.gemini);
    expect(textOf(result)).not.toContain("upstream body");
  });

  it("when every one fails, reports the first one's error with the others after it", async () => {
    fake.failWith = { gemini: 500, perplexity: 503, exa: 429 };
    const output = await outputOf(auto(), { query: "all down" });
    expect(output).toMatchObject({ kind: "error", provider: "gemini", error: "provider_error" });
    expect(output.message).toMatch(
      /^gemini search for "all down" failed: HTTP 500 .*; the next auto-detected providers failed too: perplexity \(.*HTTP 503.*\); exa \(.*rate limited.*\)$/,
    );
    expect(fake.requests.map((r) => r.provider)).toEqual(["gemini", "perplexity", "exa"]);
  });

  it("a pinned provider never falls back; an argument the first cannot take is refused without asking the next", async () => {
    fake.failWith = { gemini: 500 };
    const pinned = hostFor(
      { plugins: { entries: { google: { config: { webSearch: { baseUrl: `${fake.url}/v1beta` } } } } }, tools: { web: { search: { provider: "gemini" } } } },
      env(),
    );
    expect(await outputOf(pinned, { query: "pinned" })).toMatchObject({ kind: "error", provider: "gemini", message: expect.stringContaining("HTTP 500") });
    expect(fake.requests.map((r) => r.provider)).toEqual(["gemini"]);
    expect(errorOf(await run(auto(), { query: "q", country: "US" })).message).toContain("country is not supported by gemini");
    expect(fake.requests).toHaveLength(1);
  });
});

describe("OpenClaw's arguments this gateway does not send", () => {
  it("refuses Perplexity's domain_filter and content limits and Exa's type and contents by name, before asking", async () => {
    const host = hostFor({}, { EXA_API_KEY: fake.keys.exa });
    expect(errorOf(await run(host, { query: "q", domain_filter: ["-reddit.com"], max_tokens: 100 })).message).toContain("domain_filter, max_tokens are not supported here");
    expect(errorOf(await run(host, { query: "q", type: "neural", contents: { text: true } })).message).toContain("type, contents are not supported here");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("date arguments", () => {
  it("freshness goes with neither date; date_after may not be later than date_before", async () => {
    const host = hostFor({}, { EXA_API_KEY: fake.keys.exa });
    expect(errorOf(await run(host, { query: "q", freshness: "week", date_before: "2026-01-01" })).message).toContain("give freshness or date_after/date_before, not both");
    expect(errorOf(await run(host, { query: "q", date_after: "2026-02-01", date_before: "2026-01-01" })).message).toContain(
      "date_after 2026-02-01 is later than date_before 2026-01-01",
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe("the cache with these providers", () => {
  it("reuses Gemini's answer for the same query whatever the count; after a fallback the failed provider is asked again, the answer that came is reused", async () => {
    fake.gemini = { answer: "Cached answer.", sources: [] };
    const raw = {
      plugins: { entries: { google: { config: { webSearch: { apiKey: fake.keys.gemini, baseUrl: `${fake.url}/v1beta` } } } } },
      tools: { web: { search: { cacheTtlMinutes: 5 } } },
    };
    const gemini = webSearchSetup(validateConfig(raw, {}).config, {}).host!;
    const query = `cache ${Date.now()}`;
    await run(gemini, { query, count: 2 });
    expect(await outputOf(gemini, { query, count: 5 })).toMatchObject({ kind: "answer", provider: "gemini", cached: true });
    expect(fake.requests).toHaveLength(1);

    fake.failWith = { gemini: 500 };
    fake.perplexity.results = [{ title: "Kept", url: "https://kept.example/", snippet: "kept" }];
    const env = { GEMINI_API_KEY: fake.keys.gemini, PERPLEXITY_API_KEY: fake.keys.perplexity, PERPLEXITY_SEARCH_BASE_URL: fake.url };
    const auto = webSearchSetup(validateConfig({ ...raw, plugins: { entries: { google: { config: { webSearch: { baseUrl: `${fake.url}/v1beta` } } } } } }, env).config, env).host!;
    const other = `fallback cache ${Date.now()}`;
    await run(auto, { query: other });
    const again = await outputOf(auto, { query: other });
    expect(again).toMatchObject({ kind: "results", provider: "perplexity", cached: true, fallbackFrom: [{ provider: "gemini" }] });
    expect(fake.requests.map((r) => r.provider)).toEqual(["gemini", "gemini", "perplexity", "gemini"]);
  });
});
