import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { isContextOverflowText } from "./context-overflow.js";
import { retryAfterOf } from "./retry-after.js";

/**
 * A `fetch` for the model SDKs over node:http with keep-alive agents. The global fetch (undici)
 * costs more main-thread time per request than the rest of a gateway turn's model call: it
 * builds a WHATWG Request, tees the body for possible redirects and parses responses in wasm.
 * Model APIs answer in place, so this fetch does not follow redirects (a 3xx reaches the SDK as
 * an error status). Everything else the SDKs use is standard: the result is a real Response.
 */
export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  if (typeof input === "object" && !(input instanceof URL)) return fetch(input, init);
  const url = new URL(input);
  const client = url.protocol === "https:" ? https : url.protocol === "http:" ? http : undefined;
  if (!client) return fetch(input, init);
  const body = requestBody(init.body);
  if (body === undefined) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));

  return new Promise<Response>((resolve, reject) => {
    const request = client.request(url, { method: init.method ?? "GET", headers: headerRecord(init.headers), agent: agentFor(client), signal }, (response) =>
      fetchResponse(response, init.method).then(resolve, reject),
    );
    request.once("error", (err) => reject(signal?.aborted ? abortError(signal) : err));
    request.end(body);
  });
}

/** The keep-alive agent every model request over `client` (node:http or node:https) shares. */
export function agentFor(client: typeof http | typeof https): http.Agent {
  return client === https ? HTTPS_AGENT : HTTP_AGENT;
}

/** A node:http answer as the `Response` the SDKs read, with the error-answer rules below applied. */
export function fetchResponse(response: http.IncomingMessage, method?: string): Promise<Response> {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = response.statusCode ?? 502;
  if (status >= 400 && waitsTooLong(headers)) headers.set("x-should-retry", "false");
  const nullBody = status === 204 || status === 205 || status === 304 || method === "HEAD";
  if (nullBody) response.resume();
  const responseInit = { status, statusText: response.statusMessage ?? "", headers };
  if (status >= 400 && !nullBody) return readErrorBody(response, headers, status).then((bytes) => new Response(bytes as unknown as BodyInit, responseInit));
  return Promise.resolve(new Response(nullBody ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), responseInit));
}

const ERROR_BODY_LIMIT = 256 * 1024;

/**
 * An error answer (small) is read whole here, for two rules:
 * - Some servers (Ollama) report a context overflow as a 5xx, which the SDKs would retry in vain:
 *   the same request overflows again. Such an answer is marked `x-should-retry: false`, so the
 *   error reaches compaction at once.
 * - OpenAI-compatible servers that answer `{message: …}` without OpenAI's `error` envelope
 *   (Mistral, Bedrock's gateway) would lose their text in the OpenAI SDK, which reads only
 *   `error`: the body is wrapped as `{error: {…}}`, which every SDK here reads.
 */
async function readErrorBody(response: http.IncomingMessage, headers: Headers, status: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= ERROR_BODY_LIMIT) chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  const text = body.toString("utf8");
  if (status >= 500 && isContextOverflowText(text)) headers.set("x-should-retry", "false");
  const wrapped = withErrorEnvelope(text);
  if (wrapped === undefined) return body;
  headers.delete("content-length");
  return Buffer.from(wrapped, "utf8");
}

function withErrorEnvelope(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || "error" in parsed) return undefined;
  if (typeof (parsed as { message?: unknown }).message !== "string") return undefined;
  return JSON.stringify({ error: parsed });
}

/**
 * The SDKs honour `retry-after` however long it is, and their wait cannot be aborted. A provider
 * asking for more than this (seconds; `OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS`, default 60) gets
 * `x-should-retry: false` added to its answer, so the SDK gives up at once and failover can try
 * another key or model instead (docs/models.md).
 */
function waitsTooLong(headers: Headers): boolean {
  const waitMs = retryAfterOf(headers);
  return waitMs !== undefined && waitMs > sdkRetryMaxWaitMs();
}

function sdkRetryMaxWaitMs(): number {
  const configured = Number(process.env.OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS);
  return (Number.isFinite(configured) && configured >= 0 && process.env.OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS ? configured : 60) * 1000;
}

const HTTP_AGENT = new http.Agent({ keepAlive: true });
const HTTPS_AGENT = new https.Agent({ keepAlive: true });

/** The bodies the SDKs send as bytes; undefined for anything else (streams, forms), which goes to the global fetch. */
function requestBody(body: RequestInit["body"]): Uint8Array | string | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) headers.forEach((value, key) => (out[key] = value));
  else if (Array.isArray(headers)) for (const [key, value] of headers) out[key!.toLowerCase()] = value!;
  else for (const [key, value] of Object.entries(headers)) if (value !== undefined) out[key.toLowerCase()] = String(value);
  return out;
}

/** What an aborted request fails with: the signal's reason, or the DOM AbortError fetch throws. */
export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}
