import http from "node:http";
import { listenOnLoopback } from "./loopback-listener.js";

/** One request the fake answered (or refused). */
export interface SearchApiRequest {
  provider: SearchApiProvider;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type SearchApiProvider = "perplexity" | "sonar" | "exa" | "gemini";

/** A result a list-style fake answers with, in the provider's own field names. */
export type RawResult = Record<string, unknown>;

/**
 * A fake of the search APIs that answer over JSON POSTs, each checking its key where the real API
 * reads it and the fields the real API requires:
 * - Perplexity's Search API, `POST /search` with `Authorization: Bearer <key>` and `query`:
 *   `{id, results: [{title, url, snippet, date, last_updated}]}`;
 * - Sonar chat completions (Perplexity's or OpenRouter's), `POST /chat/completions` with the
 *   bearer key, `model` and one user message: `{choices: [{message: {content, annotations}}], citations}`;
 * - Exa, `POST /search` with `x-api-key` and `query`: `{requestId, results: [{title, url, publishedDate, highlights, summary, text}]}`;
 * - Gemini, `POST /v1beta/models/<model>:generateContent` with `x-goog-api-key`, `contents` and a
 *   `google_search` tool: a candidate whose text parts are the answer and whose `groundingMetadata`
 *   lists the sources.
 * A wrong key gets the provider's refusal (401; Gemini's 403). `failWith[provider]` makes that provider answer the status
 * (with a body the model must never see). Every request is recorded.
 */
export interface FakeSearchApiServer {
  readonly url: string;
  readonly requests: SearchApiRequest[];
  keys: Record<SearchApiProvider, string>;
  perplexity: { results: RawResult[] };
  sonar: { answer: string; citations: string[] };
  exa: { results: RawResult[] };
  gemini: { answer: string; sources: { uri: string; title?: string }[] };
  failWith: Partial<Record<SearchApiProvider, number>>;
  close(): Promise<void>;
}

export async function startFakeSearchApiServer(): Promise<FakeSearchApiServer> {
  const fake: Omit<FakeSearchApiServer, "url" | "close"> = {
    requests: [],
    keys: { perplexity: "pplx-fake-key", sonar: "sk-or-fake-key", exa: "exa-fake-key", gemini: "gemini-fake-key" },
    perplexity: { results: [] },
    sonar: { answer: "Sonar's answer.", citations: [] },
    exa: { results: [] },
    gemini: { answer: "Gemini's answer.", sources: [] },
    failWith: {},
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    } catch {
      body = {};
    }
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const provider = whichProvider(req, url.pathname);
    if (!provider || req.method !== "POST") return reply(404, { error: "not found" });
    fake.requests.push({ provider, method: req.method, path: url.pathname, headers: req.headers, body });
    const failure = fake.failWith[provider];
    if (failure) return reply(failure, { error: { message: "upstream body the model must not see" } });
    switch (provider) {
      case "perplexity":
        if (req.headers.authorization !== `Bearer ${fake.keys.perplexity}`) return reply(401, { error: { message: "Invalid API key", type: "invalid_api_key" } });
        if (typeof body.query !== "string") return reply(400, { error: { message: "query is required" } });
        return reply(200, { id: "search-1", results: fake.perplexity.results.slice(0, Number(body.max_results ?? 10)) });
      case "sonar": {
        if (req.headers.authorization !== `Bearer ${fake.keys.sonar}`) return reply(401, { error: { message: "No auth credentials found", code: 401 } });
        const messages = body.messages as { role?: string; content?: string }[] | undefined;
        if (typeof body.model !== "string" || messages?.length !== 1 || messages[0]?.role !== "user")
          return reply(400, { error: { message: "model and a user message are required" } });
        const annotations = fake.sonar.citations.map((url) => ({ type: "url_citation", url_citation: { url, title: `About ${new URL(url).host}` } }));
        return reply(200, {
          id: "gen-1",
          model: body.model,
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: fake.sonar.answer, annotations } }],
          citations: fake.sonar.citations,
        });
      }
      case "exa":
        if (req.headers["x-api-key"] !== fake.keys.exa) return reply(401, { error: "Invalid API key" });
        if (typeof body.query !== "string") return reply(400, { error: "query is required" });
        return reply(200, { requestId: "exa-1", resolvedSearchType: "neural", results: fake.exa.results.slice(0, Number(body.numResults ?? 10)) });
      case "gemini": {
        if (req.headers["x-goog-api-key"] !== fake.keys.gemini) {
          return reply(403, { error: { code: 403, message: "Method doesn't allow unregistered callers.", status: "PERMISSION_DENIED" } });
        }
        const tools = body.tools as Record<string, unknown>[] | undefined;
        if (!Array.isArray(body.contents) || !tools?.some((tool) => "google_search" in tool))
          return reply(400, { error: { code: 400, message: "contents and google_search required" } });
        return reply(200, {
          candidates: [
            {
              content: { role: "model", parts: [{ text: fake.gemini.answer }] },
              finishReason: "STOP",
              groundingMetadata: { webSearchQueries: ["q"], groundingChunks: fake.gemini.sources.map((web) => ({ web })) },
            },
          ],
          modelVersion: "gemini-fake",
        });
      }
    }
  });
  return Object.assign(fake, await listenOnLoopback(server));
}

function whichProvider(req: http.IncomingMessage, path: string): SearchApiProvider | undefined {
  if (path.endsWith("/chat/completions")) return "sonar";
  if (/\/models\/[^/]+:generateContent$/.test(path)) return "gemini";
  if (path.endsWith("/search")) return req.headers["x-api-key"] !== undefined ? "exa" : "perplexity";
  return undefined;
}
