import http from "node:http";
import { listenOnLoopback } from "./loopback-listener.js";

/** One request the fake search provider answered. */
export interface SearchRequest {
  path: string;
  params: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

/**
 * A fake of both search APIs web_search speaks: Brave's `GET /res/v1/web/search` (key in
 * `x-subscription-token`) and SearXNG's `GET /search?format=json`. Each answers with the results a
 * test set for it (by default none), or the status `failWith` names; every request is recorded.
 */
export interface FakeSearchServer {
  readonly url: string;
  readonly requests: SearchRequest[];
  brave: { key: string; results: Record<string, unknown>[] };
  searxng: { results: Record<string, unknown>[]; byCategory?: Record<string, Record<string, unknown>[]> };
  failWith?: number;
  close(): Promise<void>;
}

export async function startFakeSearchServer(): Promise<FakeSearchServer> {
  const fake: Omit<FakeSearchServer, "url" | "close"> = { requests: [], brave: { key: "", results: [] }, searxng: { results: [] } };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    fake.requests.push({ path: url.pathname, params: Object.fromEntries(url.searchParams), headers: req.headers });
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (fake.failWith) return reply(fake.failWith, { error: { detail: "upstream body the model must not see" } });
    if (url.pathname === "/res/v1/web/search") {
      if (req.headers["x-subscription-token"] !== fake.brave.key) return reply(401, { error: "bad token" });
      return reply(200, { type: "search", web: { type: "search", results: fake.brave.results } });
    }
    if (url.pathname === "/search" && url.searchParams.get("format") === "json") {
      const category = url.searchParams.get("categories") ?? "general";
      return reply(200, { query: url.searchParams.get("q"), results: fake.searxng.byCategory?.[category] ?? fake.searxng.results });
    }
    return reply(404, { error: "not found" });
  });
  return Object.assign(fake, await listenOnLoopback(server));
}
