import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate.js";
import { webSearchSetup } from "../../../src/agents/tools/web-search/web-search-setup.js";
import { keepAnswer, keptAnswer } from "../../../src/agents/tools/web-search/search-cache.js";
import { resultsOutput } from "../../../src/agents/tools/web-search/search-output.js";
import { createWebSearchTool } from "../../../src/agents/tools/web-search.js";
import type { WebSearchHost } from "../../../src/agents/types.js";
import { startFakeSearchServer } from "../../fakes/search-server.js";
import { errorOf, makeContext, makeTempDir, neverAborted, textOf } from "./helpers.js";

/** A provider endpoint that records what it was asked and answers as the test says (or never). */
let server: http.Server;
let baseUrl: string;
const asked: URL[] = [];
let answer: (url: URL, res: http.ServerResponse) => void = (_url, res) => res.end(JSON.stringify({ web: { results: [] }, results: [] }));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    asked.push(url);
    answer(url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function hostFor(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): WebSearchHost {
  const setup = webSearchSetup(validateConfig(raw, env).config, env);
  if (!setup.host) throw new Error(`no host: ${setup.problem}`);
  return setup.host;
}

const brave = (extra: Record<string, unknown> = {}) =>
  hostFor({ plugins: { entries: { brave: { config: { webSearch: { apiKey: "k", baseUrl } } } } }, tools: { web: { search: { cacheTtlMinutes: 0, ...extra } } } });
const searxng = () =>
  hostFor({ plugins: { entries: { searxng: { config: { webSearch: { baseUrl, categories: "science", language: "de" } } } } }, tools: { web: { search: { cacheTtlMinutes: 0 } } } });
const run = (host: WebSearchHost, args: Record<string, unknown>, signal = neverAborted) =>
  createWebSearchTool().execute(args as never, makeContext(makeTempDir(), { webSearch: host }), signal);
const lastAsked = () => Object.fromEntries(asked.at(-1)!.searchParams);

describe("web_search setup", () => {
  it("picks a Brave key, then a Tavily key, then a SearXNG URL, and keeps a pinned provider even when it lacks its setting", () => {
    const all = { BRAVE_API_KEY: "k", TAVILY_API_KEY: "t", SEARXNG_BASE_URL: baseUrl };
    expect(webSearchSetup(validateConfig({}, all).config, all).host?.provider).toBe("brave");
    const noBrave = { TAVILY_API_KEY: "t", SEARXNG_BASE_URL: baseUrl };
    expect(webSearchSetup(validateConfig({}, noBrave).config, noBrave).host?.provider).toBe("tavily");
    expect(webSearchSetup(validateConfig({}, { SEARXNG_BASE_URL: baseUrl }).config, { SEARXNG_BASE_URL: baseUrl }).host?.provider).toBe("searxng");
    const pinned = { tools: { web: { search: { provider: "searxng" } } } };
    const env = { BRAVE_API_KEY: "k" };
    const loaded = validateConfig(pinned, env);
    expect(webSearchSetup(loaded.config, env)).toEqual({ problem: expect.stringContaining('provider is "searxng" but no instance is set') });
    expect(loaded.warnings).toContainEqual(expect.stringContaining("web_search is not offered"));
    expect(webSearchSetup(validateConfig({}, {}).config, {}).problem).toContain("no web search provider is set up");
    expect(webSearchSetup(validateConfig({ tools: { web: { search: { enabled: false } } } }, env).config, env).problem).toBe("tools.web.search.enabled is false");
  });

  it("takes a ${VAR} key whose variable is not set for no key, and says so when brave is pinned", () => {
    const raw = { plugins: { entries: { brave: { config: { webSearch: { apiKey: "${BRAVE_API_KEY}" } } } } } };
    expect(webSearchSetup(validateConfig(raw, {}).config, {}).problem).toContain("no web search provider is set up");
    const pinned = validateConfig({ ...raw, tools: { web: { search: { provider: "brave" } } } }, {});
    expect(pinned.warnings).toContainEqual(expect.stringContaining('tools.web.search.provider is "brave" but no API key is set'));
  });

  it("loads a provider it does not speak with a warning naming the ones it does, and offers no web_search", () => {
    const env = { BRAVE_API_KEY: "k" };
    const loaded = validateConfig({ tools: { web: { search: { provider: "kimi" } } } }, env);
    expect(loaded.warnings).toContainEqual(
      expect.stringMatching(/^tools\.web\.search\.provider "kimi" is not supported by this gateway \(brave, .*\): web_search is not offered$/),
    );
    expect(webSearchSetup(loaded.config, env).host).toBeUndefined();
  });
});

describe("web_search with Brave", () => {
  it("sends Brave's parameters: a date range ends today when only its start is given", async () => {
    answer = (_url, res) => res.end(JSON.stringify({ web: { results: [{ title: "A", url: "https://a.example/" }] } }));
    const result = await run(brave(), { query: "news", date_after: "2026-01-01", language: "fr", ui_lang: "fr-FR" });
    expect(JSON.parse(textOf(result))).toMatchObject({ kind: "results", count: 1 });
    expect(asked.at(-1)!.pathname).toBe("/res/v1/web/search");
    expect(lastAsked()).toEqual({ q: "news", count: "5", search_lang: "fr", ui_lang: "fr-FR", freshness: `2026-01-01to${new Date().toISOString().slice(0, 10)}` });
  });

  it("refuses what Brave cannot run, before asking it", async () => {
    const before = asked.length;
    expect(errorOf(await run(brave(), { query: "q", date_before: "2026-01-01" })).message).toContain("date_before needs date_after");
    expect(errorOf(await run(brave(), { query: "q", ui_lang: "en" })).message).toContain("needs a region");
    expect(errorOf(await run(brave(), { query: "q", categories: "news" })).message).toContain("categories is not supported by brave");
    expect(errorOf(await run(brave(), { query: "q", freshness: "day", date_after: "2026-01-01" })).message).toContain("not both");
    expect(asked.length).toBe(before);
  });

  it("a provider that does not answer in time fails naming the setting", async () => {
    answer = () => {};
    const result = await run(brave({ timeoutSeconds: 1 }), { query: "slow" });
    expect(JSON.parse(textOf(result))).toMatchObject({ kind: "error", provider: "brave", message: expect.stringContaining("tools.web.search.timeoutSeconds") });
  });

  it("the caller's abort ends the call as aborted", async () => {
    answer = () => {};
    const controller = new AbortController();
    const pending = run(brave(), { query: "stopped" }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(errorOf(await pending).error).toBe("ABORTED");
  });

  it("never asks a public host over http://", async () => {
    const host = hostFor({ plugins: { entries: { brave: { config: { webSearch: { apiKey: "k", baseUrl: "http://8.8.8.8" } } } } } });
    const output = JSON.parse(textOf(await run(host, { query: "clear text" })));
    expect(output).toMatchObject({ kind: "error", provider: "brave" });
    expect(output.message).toContain("http:// is only allowed to a loopback or private address");
  });
});

describe("web_search with SearXNG", () => {
  it("asks the instance's JSON API with its configured category and language, and refuses Brave's arguments", async () => {
    answer = (_url, res) => res.end(JSON.stringify({ results: [{ title: "Paper", url: "https://arxiv.example/1", content: "abstract" }] }));
    const output = JSON.parse(textOf(await run(searxng(), { query: "quarks", count: 2, freshness: "year" })));
    expect(output).toMatchObject({ kind: "results", provider: "searxng", results: [{ url: "https://arxiv.example/1" }] });
    expect(lastAsked()).toEqual({ q: "quarks", format: "json", categories: "science", language: "de", time_range: "year" });
    expect(errorOf(await run(searxng(), { query: "q", country: "US", search_lang: "en" })).message).toContain("country, search_lang are not supported by searxng");
  });
});

describe("web_search with Tavily", () => {
  it("POSTs the query with the key as a bearer token, freshness as time_range, and refuses what Tavily cannot take", async () => {
    const search = await startFakeSearchServer();
    try {
      search.tavily = { key: "tvly-secret", results: [{ title: "Tavily hit", url: "https://t.example/1", content: "from tavily", score: 0.9, published_date: "2026-11-30" }] };
      const host = hostFor({
        plugins: { entries: { tavily: { config: { webSearch: { apiKey: "tvly-secret", baseUrl: search.url } } } } },
        tools: { web: { search: { cacheTtlMinutes: 0 } } },
      });
      const output = JSON.parse(textOf(await run(host, { query: "llm news", count: 3, freshness: "week" })));
      expect(output).toMatchObject({ kind: "results", provider: "tavily", count: 1, results: [{ url: "https://t.example/1", published: "2026-11-30" }] });
      expect(search.requests[0]).toMatchObject({
        method: "POST",
        path: "/search",
        body: { query: "llm news", max_results: 3, time_range: "week", topic: "general", include_answer: false },
      });
      expect(errorOf(await run(host, { query: "q", country: "US", region: "us-en" })).message).toContain("country, region are not supported by tavily");
      search.tavily.key = "another";
      const refused = JSON.parse(textOf(await run(host, { query: "refused" })));
      expect(refused.message).toContain("plugins.entries.tavily.config.webSearch.apiKey or TAVILY_API_KEY");
      expect(refused.message).not.toContain("tvly-secret");
    } finally {
      await search.close();
    }
  });
});

describe("web_search with DuckDuckGo", () => {
  it("is used only when named; reads the organic results of the page, skipping the ad and unwrapping the redirect links", async () => {
    const search = await startFakeSearchServer();
    try {
      expect(webSearchSetup(validateConfig({}, {}).config, {}).problem).toContain("name duckduckgo or ollama in tools.web.search.provider");
      search.duckduckgo = {
        results: [
          { title: "Rust & Go compared", url: "https://blog.example/rust-go?a=1&b=2", snippet: "A <fair> look at both" },
          { title: "Second", url: "https://second.example/", snippet: "More" },
        ],
      };
      const raw = { plugins: { entries: { duckduckgo: { config: { webSearch: { baseUrl: search.url, region: "de-de", safeSearch: "strict" } } } } } };
      const host = hostFor({ ...raw, tools: { web: { search: { provider: "duckduckgo", cacheTtlMinutes: 0 } } } });
      const output = JSON.parse(textOf(await run(host, { query: "Rust", count: 5, freshness: "month" })));
      expect(output).toMatchObject({ kind: "results", provider: "duckduckgo", count: 2 });
      expect(output.results.map((r: { url: string }) => r.url)).toEqual(["https://blog.example/rust-go?a=1&b=2", "https://second.example/"]);
      expect(output.results[0].title).toContain("Rust & Go compared");
      expect(output.results[0].snippet).toContain("A <fair> look at both");
      expect(search.requests[0]).toMatchObject({ method: "GET", path: "/html/", params: { q: "Rust", kl: "de-de", kp: "1", df: "m" } });
      // The call's own region and SafeSearch win over the config's.
      await run(host, { query: "Rust", region: "us-en", safeSearch: "off" });
      expect(search.requests[1]!.params).toMatchObject({ kl: "us-en", kp: "-2" });
      expect(errorOf(await run(host, { query: "q", categories: "news" })).message).toContain("categories is not supported by duckduckgo");
    } finally {
      await search.close();
    }
  });

  it("a bot challenge instead of results is an error that says so; a page with no results is an empty answer", async () => {
    const search = await startFakeSearchServer();
    try {
      const host = hostFor({
        plugins: { entries: { duckduckgo: { config: { webSearch: { baseUrl: search.url } } } } },
        tools: { web: { search: { provider: "duckduckgo", cacheTtlMinutes: 0 } } },
      });
      expect(JSON.parse(textOf(await run(host, { query: "nothing" })))).toMatchObject({ kind: "results", count: 0 });
      expect(search.requests[0]!.params.kp).toBe("-1");
      search.duckduckgo.challenge = true;
      const output = JSON.parse(textOf(await run(host, { query: "blocked" })));
      expect(output).toMatchObject({ kind: "error", provider: "duckduckgo" });
      expect(output.message).toContain("bot challenge");
    } finally {
      await search.close();
    }
  });
});

describe("web_search with Ollama", () => {
  it("is used only when named; a local host is asked at its proxy first, then at /api/web_search, with no key from the environment", async () => {
    const search = await startFakeSearchServer();
    try {
      search.ollama = { results: [{ title: "Ollama hit", url: "https://o.example/1", content: "via ollama" }], experimental: false };
      const env = { OLLAMA_API_KEY: "cloud-key-not-for-local" };
      const raw = { models: { providers: { ollama: { api: "ollama", baseUrl: search.url } } }, tools: { web: { search: { provider: "ollama", cacheTtlMinutes: 0 } } } };
      const host = hostFor(raw, env);
      const output = JSON.parse(textOf(await run(host, { query: "local search", count: 2 })));
      expect(output).toMatchObject({ kind: "results", provider: "ollama", count: 1, results: [{ url: "https://o.example/1" }] });
      expect(search.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/experimental/web_search", "POST /api/web_search"]);
      expect(search.requests[1]!.body).toEqual({ query: "local search", max_results: 2 });
      expect(search.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
      search.ollama.experimental = true;
      await run(host, { query: "again" });
      expect(search.requests.at(-1)!.path).toBe("/api/experimental/web_search");
      expect(errorOf(await run(host, { query: "q", freshness: "day" })).message).toContain("freshness is not supported by ollama");
    } finally {
      await search.close();
    }
  });

  it("https://ollama.com needs a key, sent only there", () => {
    const raw = { plugins: { entries: { ollama: { config: { webSearch: { baseUrl: "https://ollama.com" } } } } }, tools: { web: { search: { provider: "ollama" } } } };
    expect(webSearchSetup(validateConfig(raw, {}).config, {}).problem).toContain("set OLLAMA_API_KEY");
    expect(webSearchSetup(validateConfig(raw, { OLLAMA_API_KEY: "k" }).config, { OLLAMA_API_KEY: "k" }).host?.provider).toBe("ollama");
  });
});

describe("the answer cache", () => {
  const output = resultsOutput("brave", "q", [], 1);
  it("reuses an answer only while it is younger than the TTL in force when read; 0 neither keeps nor reads", () => {
    keepAnswer("k1", output, 60_000, 1_000);
    expect(keptAnswer("k1", 60_000, 50_000)).toBe(output);
    expect(keptAnswer("k1", 10_000, 50_000)).toBeUndefined();
    expect(keptAnswer("k1", 0, 1_000)).toBeUndefined();
    keepAnswer("k2", output, 0, 1_000);
    expect(keptAnswer("k2", 60_000, 1_000)).toBeUndefined();
  });
});
