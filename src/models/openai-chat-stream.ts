import http from "node:http";
import https from "node:https";
import type OpenAI from "openai";
import type { Stream } from "openai/streaming";
import { urlToHttpOptions } from "node:url";
import { packageVersion } from "../infra/version.js";
import type { SdkErrorClasses } from "./model-errors.js";
import { abortError, agentFor, fetchResponse, nodeHttpFetch } from "./node-http-fetch.js";
import type { SharedClientOptions } from "./sdk-stream.js";
import type { ProviderModel } from "./types.js";

type Chunk = OpenAI.ChatCompletionChunk;

export interface OpenChatStreamOptions {
  signal: AbortSignal;
  maxRetries: number;
}

/**
 * A streamed Chat Completions request whose common outcome — a 2xx event stream — is read here,
 * straight from node:http: no fetch `Response`, web streams or SDK decoders between the socket
 * and the chunk reader (they cost more main-thread time per turn than the rest of the model
 * call). Every other outcome of that first attempt (an error status, a failed connection, no
 * headers within the client's timeout, a 2xx that is not an event stream) is handed to the SDK
 * as the answer to its own first attempt, so retries, back-off, error classes and messages are
 * the SDK's, exactly as for a request it had sent itself, and no request is sent twice.
 */
export async function openChatCompletionsStream(client: ChatCompletionsClient, model: ProviderModel, body: Buffer, options: OpenChatStreamOptions): Promise<AsyncIterable<Chunk>> {
  const target = targetFor(client, model);
  if (!target) return sdkStream(await client.sdk(), body, options);
  const first = await firstAttempt(target, body, options.signal, client.timeoutMs);
  if (first.kind === "stream") return chunksOf(first.response, options.signal);
  if (options.signal.aborted) throw abortError(options.signal);
  const sdk = await client.sdk();
  return sdkStream(sdk.withOptions({ fetch: replayFirst(first) }), body, options);
}

/** The OpenAI SDK's default request timeout (`OpenAI.DEFAULT_TIMEOUT`), for a client that sets none. */
export const SDK_DEFAULT_TIMEOUT_MS = 600_000;

/**
 * A Chat Completions client: the endpoint, key and timeout the stream needs, and the OpenAI SDK
 * client, made (and the SDK loaded) only when a request needs it: an answer that is not a 2xx
 * event stream, an SSE error event, or a provider without its own base URL (the SDK knows the
 * default host). A gateway whose model calls succeed never loads the SDK.
 */
export class ChatCompletionsClient {
  private made: Promise<OpenAI> | undefined;

  constructor(
    readonly model: ProviderModel,
    readonly shared: SharedClientOptions,
  ) {}

  get apiKey(): string {
    return this.shared.apiKey;
  }

  get timeoutMs(): number {
    return this.shared.timeout ?? SDK_DEFAULT_TIMEOUT_MS;
  }

  /** The SDK client for this endpoint (loaded once; a failed load is tried again next time). */
  sdk(): Promise<OpenAI> {
    if (!this.made) {
      this.made = loadOpenAIClientModule().then((module) => module.createOpenAIClient(this.model, this.shared));
      this.made.catch(() => (this.made = undefined));
    }
    return this.made;
  }
}

function loadOpenAIClientModule(): Promise<typeof import("./openai-client.js")> {
  return import("./openai-client.js").then((module) => {
    Object.assign(OPENAI_ERRORS_ONCE_LOADED, module.OPENAI_SDK_ERRORS);
    return module;
  });
}

/** No value is an instance of it: the SDK's error classes before the SDK is loaded (no SDK error can exist yet). */
class NotLoaded extends Error {}

/**
 * The OpenAI SDK's error classes for telling its failures apart, filled in when the SDK loads.
 * Until then nothing can be one of them, so a placeholder class stands in.
 */
export const OPENAI_ERRORS_ONCE_LOADED: SdkErrorClasses = {
  APIError: NotLoaded,
  APIUserAbortError: NotLoaded,
  APIConnectionError: NotLoaded,
  APIConnectionTimeoutError: NotLoaded,
};

function sdkStream(client: OpenAI, body: Buffer, options: OpenChatStreamOptions): Promise<AsyncIterable<Chunk>> {
  return client.post<Stream<Chunk>>("/chat/completions", { body, headers: { "content-type": "application/json" }, stream: true, ...options });
}

interface Target {
  /** The URL as request options (host, port, path), converted once instead of per request. */
  location: http.RequestOptions;
  transport: typeof http | typeof https;
  headers: Record<string, string>;
}

const targets = new WeakMap<ChatCompletionsClient, Target | null>();

/**
 * Where and with which headers the client sends Chat Completions (worked out once per client);
 * null when the SDK should send it: no base URL of the provider's own (the SDK's default host
 * and environment apply), a base URL with a query or fragment (the SDK rewrites those), or not http(s).
 */
function targetFor(client: ChatCompletionsClient, model: ProviderModel): Target | null {
  let target = targets.get(client);
  if (target !== undefined) return target;
  const url = chatCompletionsUrl(client.model.baseUrl);
  const transport = url?.protocol === "https:" ? https : url?.protocol === "http:" ? http : undefined;
  target = transport
    ? {
        location: urlToHttpOptions(url!),
        transport,
        headers: {
          accept: "application/json",
          "content-type": "application/json",
          "user-agent": `openclaw/${packageVersion()}`,
          authorization: `Bearer ${client.apiKey}`,
          // The provider's configured headers win over ours, as they do in the SDK.
          ...Object.fromEntries(Object.entries(model.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
        },
      }
    : null;
  targets.set(client, target);
  return target;
}

/** `<baseUrl>/chat/completions` as the SDK joins it; undefined when the SDK must work it out. */
export function chatCompletionsUrl(baseUrl: string | undefined): URL | undefined {
  if (!baseUrl || /[?#]/.test(baseUrl)) return undefined;
  try {
    return new URL(baseUrl + (baseUrl.endsWith("/") ? "chat/completions" : "/chat/completions"));
  } catch {
    return undefined;
  }
}

type Attempt = { kind: "stream"; response: http.IncomingMessage } | { kind: "answer"; response: Response } | { kind: "failed"; error: unknown };

function firstAttempt(target: Target, body: Buffer, signal: AbortSignal, timeoutMs: number): Promise<Attempt> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const request = target.transport.request(
      { ...target.location, method: "POST", headers: { ...target.headers, "content-length": String(body.length) }, agent: agentFor(target.transport) },
      (response) => {
        clearTimeout(timer);
        const status = response.statusCode ?? 502;
        if (status >= 200 && status < 300 && /text\/event-stream/i.test(response.headers["content-type"] ?? "")) return resolve({ kind: "stream", response });
        fetchResponse(response, "POST").then(
          (answer) => resolve({ kind: "answer", response: answer }),
          (error: unknown) => resolve({ kind: "failed", error }),
        );
      },
    );
    destroyOnAbort(request, signal);
    // The SDK's own timeout covers the wait for the answer's headers; its message says "timed out",
    // which is how the SDK recognises a timeout from a fetch.
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) timer = setTimeout(() => request.destroy(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs);
    request.once("error", (error) => {
      clearTimeout(timer);
      resolve({ kind: "failed", error });
    });
    request.end(body);
  });
}

/**
 * Ends `request`, and with it an answer still streaming, when `signal` aborts; the listener goes
 * when the request closes (its answer read or the connection gone). In place of node:http's own
 * `signal` option, which watches the request with end-of-stream listeners that cost more
 * main-thread time per model call than building and sending the request itself.
 */
function destroyOnAbort(request: http.ClientRequest, signal: AbortSignal): void {
  const abort = () => {
    request.destroy(abortError(signal) as Error);
  };
  if (signal.aborted) return abort();
  signal.addEventListener("abort", abort, { once: true });
  request.once("close", () => signal.removeEventListener("abort", abort));
}

/** A fetch whose first call answers with the attempt already made; later calls (the SDK's retries) go out for real. */
function replayFirst(first: Exclude<Attempt, { kind: "stream" }>): typeof fetch {
  let replayed = false;
  return (input, init) => {
    if (replayed) return nodeHttpFetch(input as string | URL, init);
    replayed = true;
    return first.kind === "answer" ? Promise.resolve(first.response) : Promise.reject(first.error);
  };
}

/**
 * The event stream's chunks, read the way the SDK reads them: events end at a blank line, `data`
 * lines join with "\n", comments and other fields are skipped, `[DONE]` ends the data, an event
 * carrying `error` throws the SDK's APIError, and an abort ends the iteration quietly (the caller
 * checks the signal). Leaving early closes the response, which ends the request.
 */
async function* chunksOf(response: http.IncomingMessage, signal: AbortSignal): AsyncGenerator<Chunk> {
  response.setEncoding("utf8");
  const lines = new SseLines();
  let done = false;
  try {
    for await (const text of response as AsyncIterable<string>) {
      for (const event of lines.push(text)) {
        if (done) continue;
        if (event.data.startsWith("[DONE]")) {
          done = true;
          continue;
        }
        const data = JSON.parse(event.data) as { error?: unknown } | null;
        // Assistants-API events never carry a Chat Completions chunk.
        if (event.event?.startsWith("thread.")) continue;
        if (data?.error) {
          const { OpenAI } = await loadOpenAIClientModule();
          throw new OpenAI.APIError(undefined, data.error as object, undefined, headersOf(response));
        }
        yield data as unknown as Chunk;
      }
    }
    done = true;
  } catch (err) {
    if (signal.aborted || (err as Error)?.name === "AbortError") return;
    throw err;
  } finally {
    if (!done) response.destroy();
  }
}

function headersOf(response: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

interface SseEvent {
  event: string | null;
  data: string;
}

/** Server-sent events from text arriving in arbitrary pieces (lines end in \n, \r\n or \r). */
export class SseLines {
  private rest = "";
  private event: string | null = null;
  private data: string[] = [];

  /** The events completed by `text`. */
  push(text: string): SseEvent[] {
    const buffer = this.rest + text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < buffer.length; i += 1) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A \r last in the piece may be the first half of \r\n: wait for the next piece.
      if (c === 13 && i + 1 === buffer.length) break;
      const event = this.line(buffer.slice(start, i));
      if (event) events.push(event);
      if (c === 13 && buffer.charCodeAt(i + 1) === 10) i += 1;
      start = i + 1;
    }
    this.rest = buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") {
      if (!this.event && this.data.length === 0) return undefined;
      const event = { event: this.event, data: this.data.join("\n") };
      this.event = null;
      this.data = [];
      return event;
    }
    if (line.charCodeAt(0) === 58) return undefined; // ":" starts a comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    return undefined;
  }
}
