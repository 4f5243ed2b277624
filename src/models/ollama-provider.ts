import http from "node:http";
import https from "node:https";
import { packageVersion } from "../infra/version.js";
import { AssistantTurn } from "./assistant-turn.js";
import { withFailureHint, type EndpointShape } from "./failure-hints.js";
import { classifyModelError, secretHeaderValues, type FailurePhase, type SdkErrorClasses } from "./model-errors.js";
import { agentFor } from "./node-http-fetch.js";
import { ollamaBearerKey } from "./ollama-auth.js";
import { OllamaChunkReader, type OllamaChunk } from "./ollama-chunks.js";
import { ollamaRequestBody } from "./ollama-request.js";
import { pumpStream } from "./pump-stream.js";
import { streamDeadlines, StreamWatchdog } from "./stream-watchdog.js";
import type { ModelRequest, ModelStreamEvent, ProviderModel, StreamModelFn } from "./types.js";

/** An answer with a status: an error status, or an `{"error": …}` line inside the stream (no status). */
class OllamaApiError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly error: { message: string },
    readonly headers: Record<string, string | undefined>,
  ) {
    super(error.message);
  }
}
class OllamaAbortError extends Error {}
class OllamaConnectionError extends Error {}
class OllamaTimeoutError extends Error {}

const OLLAMA_ERRORS: SdkErrorClasses = {
  APIError: OllamaApiError,
  APIUserAbortError: OllamaAbortError,
  APIConnectionError: OllamaConnectionError,
  APIConnectionTimeoutError: OllamaTimeoutError,
};

/**
 * A StreamModelFn for `api: "ollama"`: Ollama's native `POST <baseUrl>/api/chat`, streamed as one
 * JSON object per line. Tool calls and streaming work together here, which Ollama's
 * OpenAI-compatible `/v1` does not promise. The request is sent once: a failure is an `error`
 * event for failover to act on (another key or model), never retried here. Never throws.
 *
 * Written on node:http rather than Ollama's own client library, which prints to the console
 * (the gateway's stdout is its JSON log) and skips stream lines it cannot parse.
 */
export function createOllamaStream(): StreamModelFn {
  return (request, signal) => streamOllama(request, signal);
}

async function* streamOllama(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
  const model = request.model as ProviderModel;
  const turn = new AssistantTurn(model);
  const key = ollamaBearerKey(model.apiKey);
  const secrets = [key, ...secretHeaderValues(model.headers)];
  let phase: FailurePhase = "request";
  const watchdog = new StreamWatchdog(model, streamDeadlines(model), signal);
  const classify = (err: unknown) => watchdog.expired ?? classifyModelError(err, watchdog.signal, OLLAMA_ERRORS, phase, secrets);
  const endpoint = endpointOf(model);
  try {
    const timeoutMs = model.timeoutSeconds ? model.timeoutSeconds * 1000 : undefined;
    const response = await post(chatUrl(endpoint.baseUrl), Buffer.from(JSON.stringify(ollamaRequestBody(request))), headersFor(model, key), watchdog.signal, timeoutMs);
    phase = "stream";
    const onLine = () => watchdog.progress();
    for await (const event of pumpStream(
      jsonLines(response, watchdog.signal),
      new OllamaChunkReader(turn),
      turn,
      watchdog.signal,
      () => classify(watchdog.signal.reason),
      onLine,
    )) {
      if (event.type === "done" || event.type === "error") watchdog.dispose();
      yield event;
    }
  } catch (err) {
    yield turn.fail(withFailureHint(classify(err), endpoint, model));
  } finally {
    watchdog.dispose();
  }
}

function endpointOf(model: ProviderModel): EndpointShape {
  return { baseUrl: (model.baseUrl ?? "").replace(/\/+$/, ""), path: "/api/chat", baseUrlCarriesVersion: false };
}

function chatUrl(baseUrl: string): URL {
  return new URL(`${baseUrl}/api/chat`);
}

function headersFor(model: ProviderModel, key: string | undefined): Record<string, string> {
  return {
    accept: "application/x-ndjson",
    "content-type": "application/json",
    "user-agent": `openclaw/${packageVersion()}`,
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    // The provider's configured headers win over ours.
    ...Object.fromEntries(Object.entries(model.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
  };
}

const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The 2xx answer, or an OllamaApiError carrying the error status and Ollama's `{"error": "…"}`
 * text. `timeoutMs` (`models.providers.<id>.timeoutSeconds`) bounds the wait for the answer's headers.
 */
function post(url: URL, body: Buffer, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number | undefined): Promise<http.IncomingMessage> {
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new OllamaAbortError("request aborted"));
    let timer: NodeJS.Timeout | undefined;
    const request = transport.request(url, { method: "POST", headers: { ...headers, "content-length": String(body.length) }, agent: agentFor(transport) }, (response) => {
      clearTimeout(timer);
      const status = response.statusCode ?? 502;
      if (status >= 200 && status < 300) return resolve(response);
      readError(response, status).then(reject, reject);
    });
    const abort = () => request.destroy(new OllamaAbortError("request aborted"));
    signal.addEventListener("abort", abort, { once: true });
    request.once("close", () => signal.removeEventListener("abort", abort));
    if (timeoutMs !== undefined) timer = setTimeout(() => request.destroy(new OllamaTimeoutError(`no answer within ${timeoutMs / 1000} s (timeoutSeconds)`)), timeoutMs);
    request.once("error", (err) => {
      clearTimeout(timer);
      reject(signal.aborted ? new OllamaAbortError("request aborted") : connectionError(err));
    });
    request.end(body);
  });
}

function connectionError(err: Error): Error {
  if (err instanceof OllamaAbortError || err instanceof OllamaTimeoutError) return err;
  const failure = new OllamaConnectionError(err.message);
  (failure as { cause?: unknown }).cause = err;
  return failure;
}

async function readError(response: http.IncomingMessage, status: number): Promise<OllamaApiError> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= ERROR_BODY_LIMIT) chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return new OllamaApiError(status, { message: errorText(text) || `HTTP ${status}` }, response.headers as Record<string, string | undefined>);
}

/** `{"error": "…"}` (Ollama's shape) or `{"error": {"message": "…"}}`, else the body as text. */
function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    const nested = (parsed.error as { message?: unknown } | undefined)?.message;
    if (typeof nested === "string") return nested;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500);
}

/**
 * The stream's JSON lines. A line `{"error": "…"}` (a failure after the answer began) throws it as
 * an OllamaApiError; a line that is not JSON throws a SyntaxError (a malformed stream). An abort
 * ends the iteration quietly (the caller checks the signal). Leaving early closes the response.
 */
async function* jsonLines(response: http.IncomingMessage, signal: AbortSignal): AsyncGenerator<OllamaChunk> {
  response.setEncoding("utf8");
  let rest = "";
  let complete = false;
  try {
    for await (const text of response as AsyncIterable<string>) {
      rest += text;
      let newline = rest.indexOf("\n");
      while (newline >= 0) {
        const line = rest.slice(0, newline).trim();
        rest = rest.slice(newline + 1);
        if (line) yield parseLine(line);
        newline = rest.indexOf("\n");
      }
    }
    if (rest.trim()) yield parseLine(rest.trim());
    complete = true;
  } catch (err) {
    if (signal.aborted || (err as Error)?.name === "AbortError") return;
    throw err;
  } finally {
    if (!complete) response.destroy();
  }
}

function parseLine(line: string): OllamaChunk {
  const parsed = JSON.parse(line) as OllamaChunk & { error?: unknown };
  if (parsed && typeof parsed === "object" && parsed.error !== undefined) {
    throw new OllamaApiError(undefined, { message: typeof parsed.error === "string" ? parsed.error : JSON.stringify(parsed.error) }, {});
  }
  return parsed;
}
