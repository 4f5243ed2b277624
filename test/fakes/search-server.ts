import http from "node:http";
import { listenOnLoopback } from "./loopback-listener.js";

/** One request the fake search provider answered. */
export interface SearchRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** A POST's JSON body. */
  body?: Record<string, unknown>;
}

/**
 * A fake of the search providers web_search speaks: Brave's `GET /res/v1/web/search` (key in
 * `x-subscription-token`), Tavily's `POST /search` (key as a bearer token), SearXNG's
 * `GET /search?format=json`, DuckDuckGo's no-JavaScript page `GET /html/` (HTML shaped like
 * DuckDuckGo's, an ad first) and Ollama's `POST /api/web_search` (and its local proxy path). Each answers with the results a test set for it (by default none),
 * or the status `failWith` names; every request is recorded.
 */
export interface FakeSearchServer {
  readonly url: string;
  readonly requests: SearchRequest[];
  brave: { key: string; results: Record<string, unknown>[] };
  searxng: { results: Record<string, unknown>[]; byCategory?: Record<string, Record<string, unknown>[]> };
  tavily: { key: string; results: Record<string, unknown>[] };
  duckduckgo: { results: { title: string; url: string; snippet: string }[]; challenge?: boolean };
  /** Ollama's web search: its local proxy (`experimental`: a signed-in daemon has it) and `/api/web_search`, with `key` required when set. */
  ollama: { results: { title: string; url: string; content: string }[]; experimental: boolean; key?: string };
  failWith?: number;
  close(): Promise<void>;
}

export async function startFakeSearchServer(): Promise<FakeSearchServer> {
  const fake: Omit<FakeSearchServer, "url" | "close"> = {
    requests: [],
    brave: { key: "", results: [] },
    searxng: { results: [] },
    tavily: { key: "", results: [] },
    duckduckgo: { results: [] },
    ollama: { results: [], experimental: false },
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    fake.requests.push({ method: req.method ?? "GET", path: url.pathname, params: Object.fromEntries(url.searchParams), headers: req.headers, ...(body ? { body } : {}) });
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (fake.failWith) return reply(fake.failWith, { error: { detail: "upstream body the model must not see" } });
    if (url.pathname === "/res/v1/web/search") {
      if (req.headers["x-subscription-token"] !== fake.brave.key) return reply(401, { error: "bad token" });
      return reply(200, { type: "search", web: { type: "search", results: fake.brave.results } });
    }
    if (req.method === "POST" && url.pathname === "/search") {
      if (req.headers.authorization !== `Bearer ${fake.tavily.key}`) return reply(401, { detail: { error: "Unauthorized: missing or invalid API key." } });
      return reply(200, { query: body?.query, answer: null, results: fake.tavily.results, response_time: 0.5 });
    }
    if (req.method === "POST" && (url.pathname === "/api/web_search" || (url.pathname === "/api/experimental/web_search" && fake.ollama.experimental))) {
      if (fake.ollama.key !== undefined && req.headers.authorization !== `Bearer ${fake.ollama.key}`) return reply(401, { error: "unauthorized" });
      return reply(200, { results: fake.ollama.results.slice(0, Number(body?.max_results ?? 5)) });
    }
    if (url.pathname === "/html/") {
      res.writeHead(fake.duckduckgo.challenge ? 202 : 200, { "content-type": "text/html; charset=UTF-8" });
      res.end(fake.duckduckgo.challenge ? CHALLENGE_PAGE : duckduckgoPage(url.searchParams.get("q") ?? "", fake.duckduckgo.results));
      return;
    }
    if (url.pathname === "/search" && url.searchParams.get("format") === "json") {
      const category = url.searchParams.get("categories") ?? "general";
      return reply(200, { query: url.searchParams.get("q"), results: fake.searxng.byCategory?.[category] ?? fake.searxng.results });
    }
    return reply(404, { error: "not found" });
  });
  return Object.assign(fake, await listenOnLoopback(server));
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** DuckDuckGo's result page as its no-JavaScript endpoint shapes it: an ad first, then results whose links go through its redirect. */
function duckduckgoPage(query: string, results: { title: string; url: string; snippet: string }[]): string {
  const result = (r: { title: string; url: string; snippet: string }) => `
<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title">
      <a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}&amp;rut=abc123">${escapeHtml(r.title).replace(query, `<b>${query}</b>`)}</a>
    </h2>
    <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="${escapeHtml(r.url)}">${escapeHtml(new URL(r.url).host)}</a></div></div>
    <a class="result__snippet" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}">${escapeHtml(r.snippet)}</a>
    <div class="clear"></div>
  </div>
</div>`;
  const ad = `
<div class="result results_links results_links_deep result--ad ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;u3=x">Buy things now</a></h2>
    <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Sponsored</a>
  </div>
</div>`;
  const list = results.length > 0 ? results.map(result).join("\n") : '<div class="no-results">No results.</div>';
  return `<!DOCTYPE html><html><head><title>${escapeHtml(query)} at DuckDuckGo</title></head><body><div id="links" class="results">${ad}${list}</div></body></html>`;
}

const CHALLENGE_PAGE =
  '<!DOCTYPE html><html><body><form id="challenge-form" action="/anomaly.js"><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></form></body></html>';
