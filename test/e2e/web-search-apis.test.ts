import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSearchApiServer, type FakeSearchApiServer } from "../fakes/search-api-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { toolDescriptionIn, toolResultsIn, toolsOfferedIn, v1Chat } from "../helpers/tool-turns.js";

/**
 * web_search through a real gateway with the JSON search APIs (Perplexity, Exa, Gemini): the model
 * calls it, the gateway asks the fake API with the key where that API reads it, and the model's
 * next request carries OpenClaw's result or answer shape, never the key.
 */

let model: FakeModelServer;
let api: FakeSearchApiServer;
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  model = await startFakeModelServer();
  api = await startFakeSearchApiServer();
});
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.stop("SIGKILL");
  model.reset();
  api.requests.length = 0;
  api.failWith = {};
});
afterAll(async () => {
  await api?.close();
  await model?.close();
});

async function gateway(extra: Record<string, unknown>, env: Record<string, string> = {}): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const gw = await startGateway({ stateDir, env, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, extra) } });
  gateways.push(gw);
  return gw;
}

/** Every request the fake model saw, as text: a key must be in none of them. */
const modelTraffic = () => JSON.stringify(model.requests.map((r) => r.body));

describe("web_search through the JSON search APIs", { timeout: 60_000 }, () => {
  it("Perplexity's Search API, found by PERPLEXITY_API_KEY: wrapped results, the key only in the Authorization header", async () => {
    api.perplexity.results = [{ title: "Perplexity result", url: "https://pplx.example/a", snippet: "from the Search API", date: "2026-12-01" }];
    const gw = await gateway({}, { PERPLEXITY_API_KEY: api.keys.perplexity, PERPLEXITY_SEARCH_BASE_URL: api.url });
    model.enqueue({ toolCalls: [{ name: "web_search", arguments: { query: "pplx e2e", count: 2, country: "us" } }] }, { text: "Found." });
    expect(await v1Chat(gw, "pplx", "search")).toBe("Found.");
    expect(toolDescriptionIn(model, 0, "web_search")).toMatch(/^Search the web and get titles, URLs and snippets/);
    expect(api.requests.map((r) => [r.provider, r.path, r.headers.authorization])).toEqual([["perplexity", "/search", `Bearer ${api.keys.perplexity}`]]);
    expect(api.requests[0]!.body).toEqual({ query: "pplx e2e", max_results: 2, country: "US" });
    const output = JSON.parse(toolResultsIn(model, 1)[0]!);
    expect(output).toMatchObject({ kind: "results", provider: "perplexity", count: 1, results: [{ url: "https://pplx.example/a", published: "2026-12-01" }] });
    expect(output.results[0].title).toBe("<<<BEGIN_UNTRUSTED_WEB_CONTENT>>>\nPerplexity result\n<<<END_UNTRUSTED_WEB_CONTENT>>>");
    expect(modelTraffic()).not.toContain(api.keys.perplexity);
    expect(gw.output()).not.toContain(api.keys.perplexity);
  });

  it("Perplexity through Sonar with OPENROUTER_API_KEY and a baseUrl: the model is told it gets an answer, and gets one with its citations", async () => {
    api.sonar = { answer: "Sonar's e2e answer.", citations: ["https://sonar.example/source"] };
    const gw = await gateway(
      { plugins: { entries: { perplexity: { config: { webSearch: { baseUrl: api.url, model: "perplexity/sonar" } } } } } },
      { OPENROUTER_API_KEY: api.keys.sonar },
    );
    model.enqueue({ toolCalls: [{ name: "web_search", arguments: { query: "sonar e2e" } }] }, { text: "Answered." });
    expect(await v1Chat(gw, "sonar", "search")).toBe("Answered.");
    expect(toolsOfferedIn(model, 0)).toContain("web_search");
    expect(toolDescriptionIn(model, 0, "web_search")).toMatch(/^Search the web and get a written answer with the URLs of the sources it cites/);
    expect(api.requests.map((r) => [r.provider, r.path, r.body.model])).toEqual([["sonar", "/chat/completions", "perplexity/sonar"]]);
    const output = JSON.parse(toolResultsIn(model, 1)[0]!);
    expect(output).toMatchObject({ kind: "answer", provider: "perplexity", query: "sonar e2e", citations: [{ url: "https://sonar.example/source" }] });
    expect(output.content).toContain("Sonar's e2e answer.");
    expect(modelTraffic()).not.toContain(api.keys.sonar);
    expect(gw.output()).not.toContain(api.keys.sonar);
  });

  it("Exa, found by EXA_API_KEY with its baseUrl configured: the key in x-api-key, highlights as wrapped snippets", async () => {
    api.exa.results = [{ title: "Exa result", url: "https://exa.example/e2e", highlights: ["the key sentence"], publishedDate: "2026-11-11" }];
    const gw = await gateway({ plugins: { entries: { exa: { config: { webSearch: { baseUrl: api.url } } } } } }, { EXA_API_KEY: api.keys.exa });
    model.enqueue({ toolCalls: [{ name: "web_search", arguments: { query: "exa e2e", count: 4 } }] }, { text: "Exa found it." });
    expect(await v1Chat(gw, "exa", "search")).toBe("Exa found it.");
    expect(api.requests.map((r) => [r.provider, r.path, r.headers["x-api-key"]])).toEqual([["exa", "/search", api.keys.exa]]);
    expect(api.requests[0]!.body).toMatchObject({ query: "exa e2e", numResults: 4, contents: { highlights: true } });
    const output = JSON.parse(toolResultsIn(model, 1)[0]!);
    expect(output).toMatchObject({ kind: "results", provider: "exa", count: 1, results: [{ url: "https://exa.example/e2e", published: "2026-11-11" }] });
    expect(output.results[0].snippet).toBe("<<<BEGIN_UNTRUSTED_WEB_CONTENT>>>\nthe key sentence\n<<<END_UNTRUSTED_WEB_CONTENT>>>");
    expect(modelTraffic()).not.toContain(api.keys.exa);
    expect(gw.output()).not.toContain(api.keys.exa);
  });

  it("Gemini, found by GEMINI_API_KEY: the model is told it gets an answer, and gets Google-grounded prose with its sources", async () => {
    api.gemini = { answer: "Gemini's e2e answer.", sources: [{ uri: "https://grounded.example/page", title: "grounded.example" }] };
    const gw = await gateway({ plugins: { entries: { google: { config: { webSearch: { baseUrl: `${api.url}/v1beta` } } } } } }, { GEMINI_API_KEY: api.keys.gemini });
    model.enqueue({ toolCalls: [{ name: "web_search", arguments: { query: "gemini e2e", freshness: "year" } }] }, { text: "Gemini answered." });
    expect(await v1Chat(gw, "gemini", "search")).toBe("Gemini answered.");
    expect(toolDescriptionIn(model, 0, "web_search")).toMatch(/^Search the web and get a written answer with the URLs of the sources it cites/);
    expect(api.requests.map((r) => [r.provider, r.path, r.headers["x-goog-api-key"]])).toEqual([["gemini", "/v1beta/models/gemini-3.6-flash:generateContent", api.keys.gemini]]);
    expect(api.requests[0]!.body).toMatchObject({ contents: [{ parts: [{ text: "gemini e2e" }] }], tools: [{ google_search: { timeRangeFilter: expect.any(Object) } }] });
    const output = JSON.parse(toolResultsIn(model, 1)[0]!);
    expect(output).toMatchObject({ kind: "answer", provider: "gemini", query: "gemini e2e", citations: [{ url: "https://grounded.example/page" }] });
    expect(output.content).toBe("<<<BEGIN_UNTRUSTED_WEB_CONTENT>>>\nGemini's e2e answer.\n<<<END_UNTRUSTED_WEB_CONTENT>>>");
    expect(modelTraffic()).not.toContain(api.keys.gemini);
    expect(gw.output()).not.toContain(api.keys.gemini);
  });

  it("an auto-detected provider that fails is followed by the next one; a pinned one that fails is the error, with no fallback", async () => {
    api.failWith = { gemini: 500 };
    api.perplexity.results = [{ title: "Second provider", url: "https://second.example/", snippet: "answered after gemini failed" }];
    const google = { google: { config: { webSearch: { baseUrl: `${api.url}/v1beta` } } } };
    const env = { GEMINI_API_KEY: api.keys.gemini, PERPLEXITY_API_KEY: api.keys.perplexity, PERPLEXITY_SEARCH_BASE_URL: api.url };
    const auto = await gateway({ plugins: { entries: google } }, env);
    model.enqueue({ toolCalls: [{ name: "web_search", arguments: { query: "fallback e2e" } }] }, { text: "Fell back." });
    expect(await v1Chat(auto, "fallback", "search")).toBe("Fell back.");
    expect(api.requests.map((r) => r.provider)).toEqual(["gemini", "perplexity"]);
    const output = JSON.parse(toolResultsIn(model, 1)[0]!);
    expect(output).toMatchObject({ kind: "results", provider: "perplexity", count: 1, results: [{ url: "https://second.example/" }] });
    expect(output.fallbackFrom).toEqual([{ provider: "gemini", message: expect.stringContaining("HTTP 500") }]);
    expect(toolResultsIn(model, 1)[0]).not.toContain("upstream body");
    expect(modelTraffic()).not.toContain(api.keys.gemini);
    expect(auto.output()).not.toContain(api.keys.gemini);

    api.requests.length = 0;
    const pinned = await gateway({ plugins: { entries: google }, tools: { web: { search: { provider: "gemini" } } } }, env);
    model.enqueue({ toolCalls: [{ name: "web_search", arguments: { query: "pinned e2e" } }] }, { text: "Failed." });
    expect(await v1Chat(pinned, "pinned", "search")).toBe("Failed.");
    expect(api.requests.map((r) => r.provider)).toEqual(["gemini"]);
    const error = JSON.parse(toolResultsIn(model, 3)[0]!);
    expect(error).toMatchObject({ kind: "error", provider: "gemini", error: "provider_error", message: expect.stringContaining("HTTP 500") });
    expect(error.fallbackFrom).toBeUndefined();
  });
});
