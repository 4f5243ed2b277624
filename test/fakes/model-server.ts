import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicWire } from "./model-server/anthropic-wire.js";
import { isGone, pause, readBody, sendJson, writeSse, writeStalledSse, writeTruncatedJson } from "./model-server/http-io.js";
import { ollamaWire } from "./model-server/ollama-wire.js";
import { openaiWire } from "./model-server/openai-wire.js";
import { responsesWire } from "./model-server/responses-wire.js";
import { trackConnections } from "./open-connections.js";
import { embeddingsResponse, type EmbeddingFault } from "./model-server/fake-embeddings.js";
import { isHttpError, isMalformed, isStall, type FakeReply, type RecordedRequest, type Responder, type WireFormat } from "./model-server/types.js";
import { CONTEXT_OVERFLOW_ERRORS, requestTokens, type OverflowFamily } from "./model-server/context-overflow.js";

export { CONTEXT_OVERFLOW_ERRORS, requestTokens, type OverflowFamily } from "./model-server/context-overflow.js";
export { fakeEmbedding, FAKE_EMBEDDING_DIMS, type EmbeddingFault } from "./model-server/fake-embeddings.js";
export type { FakeReply, FakeToolCall, FakeUsage, RecordedRequest, Responder, ScriptedReply, StallReply } from "./model-server/types.js";

/**
 * A real HTTP server speaking the Anthropic Messages, OpenAI Chat Completions, OpenAI
 * Responses and Ollama chat wire formats, so tests drive the real SDKs end to end. Replies are scripted: `enqueue` them in
 * order, or `setResponder` to compute them from the request; with neither, it answers "ok".
 */
export interface FakeModelServer {
  /** `http://127.0.0.1:PORT` (no `/v1`). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order: method, path, headers, parsed JSON body. */
  readonly requests: RecordedRequest[];
  /** Connections open now. */
  readonly openConnections: number;
  enqueue(...replies: FakeReply[]): void;
  /** Used when the queue is empty; `undefined` restores the default "ok" reply. */
  setResponder(responder: Responder | undefined): void;
  /** Forgets queued replies, recorded requests and the responder (between tests). */
  reset(): void;
  /**
   * Destroys every open connection, keeping the listener. Call it once the clients are gone (a
   * killed gateway): a request one sent just before, not yet read, is then never recorded.
   */
  dropConnections(): void;
  /** Makes `/v1/embeddings` fail in one way until cleared with `undefined`. */
  setEmbeddingFault(fault: EmbeddingFault | undefined): void;
  /** Holds every `/v1/embeddings` request with an input containing `marker` until the returned release is called. */
  holdEmbeddings(marker: string): () => void;
  /** Closes the listener and destroys every open connection. */
  close(): Promise<void>;
}

const ROUTES: Record<string, WireFormat> = {
  "/v1/messages": anthropicWire,
  "/v1/chat/completions": openaiWire,
  "/v1/responses": responsesWire,
  "/api/chat": ollamaWire,
};

export interface FakeModelServerOptions {
  models?: string[];
  /**
   * The model's context window in tokens (counted by `requestTokens`): a request over it gets
   * the overflow error of `overflowFamily` (default: the wire's own family) instead of a reply.
   */
  contextWindow?: number;
  overflowFamily?: OverflowFamily;
  /**
   * When set, the only key accepted (as `Authorization: Bearer` or `x-api-key`): any other
   * request gets 401, as a provider answers a wrong key.
   */
  apiKey?: string;
  /** The size of `/v1/embeddings` vectors when the request names none (default FAKE_EMBEDDING_DIMS). */
  embeddingDims?: number;
}

export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  let responder: Responder | undefined;
  let embeddingFault: EmbeddingFault | undefined;
  const holds = new Map<string, Promise<void>>();
  const modelIds = options.models ?? ["fake-model"];

  const nextReply = async (request: RecordedRequest): Promise<FakeReply> => queue.shift() ?? (responder ? await responder(request) : { text: "ok" });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      sendJson(res, 400, { error: { message: "request body is not JSON" } });
      return;
    }
    const request: RecordedRequest = { method: req.method ?? "GET", path, headers: req.headers, body };
    requests.push(request);

    if (options.apiKey !== undefined) {
      const presented = req.headers["x-api-key"] ?? req.headers.authorization?.replace(/^Bearer /, "");
      if (presented !== options.apiKey) {
        sendJson(res, 401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
        return;
      }
    }
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, modelList(modelIds));
      return;
    }
    if (req.method === "GET" && path === "/api/tags") {
      sendJson(res, 200, { models: modelIds.map((name) => ({ name, model: name, size: 1, digest: "fake" })) });
      return;
    }
    if (req.method === "POST" && path === "/v1/embeddings") {
      const inputs = JSON.stringify((body as { input?: unknown } | undefined)?.input ?? "");
      for (const [marker, held] of holds) if (inputs.includes(marker)) await held;
      const answer = embeddingsResponse(body, embeddingFault, options.embeddingDims);
      sendJson(res, answer.status, answer.body);
      return;
    }
    const wire = ROUTES[path];
    if (req.method !== "POST" || !wire) {
      sendJson(res, 404, { error: { type: "not_found_error", message: `no route for ${req.method} ${path}` } });
      return;
    }
    request.tokens = requestTokens(request);
    if (options.contextWindow !== undefined && request.tokens > options.contextWindow) {
      request.overflowed = true;
      const family = options.overflowFamily ?? (wire === anthropicWire ? "anthropic" : wire === ollamaWire ? "ollama-native" : "openai");
      await serveReply(res, wire, request, CONTEXT_OVERFLOW_ERRORS[family]);
      return;
    }
    await serveReply(res, wire, request, await nextReply(request));
  };

  const server = createServer((req, res) => {
    // A client that aborts mid-request must never take the server down.
    req.on("error", () => {});
    res.on("error", () => {});
    handle(req, res).catch((err: unknown) => {
      if (!isGone(res) && !res.headersSent) sendJson(res, 500, { error: { message: `fake server error: ${String(err)}` } });
      else res.socket?.destroy();
    });
  });
  const connections = trackConnections(server);
  server.on("clientError", (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get openConnections() {
      return connections.size;
    },
    enqueue: (...replies) => void queue.push(...replies),
    setResponder: (next) => void (responder = next),
    setEmbeddingFault: (fault) => void (embeddingFault = fault),
    holdEmbeddings: (marker) => {
      let release!: () => void;
      holds.set(marker, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        holds.delete(marker);
        release();
      };
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = undefined;
      embeddingFault = undefined;
    },
    dropConnections: () => connections.destroyAll(),
    close: () =>
      new Promise<void>((resolve) => {
        connections.destroyAll();
        server.close(() => resolve());
      }),
  };
}

async function serveReply(res: ServerResponse, wire: WireFormat, request: RecordedRequest, reply: FakeReply): Promise<void> {
  await pause(reply.delayMs, res);
  if (isGone(res)) return;
  const streaming = request.body?.stream === true;
  if (isHttpError(reply)) {
    sendJson(res, reply.status, reply.body ?? wire.errorBody(reply.status), reply.headers);
    return;
  }
  if (isStall(reply)) {
    const frames = reply.stall === "mid-reply" ? wire.streamFrames({ text: "This reply stops half-way through" }, request).slice(0, 3) : [];
    await writeStalledSse(res, frames, reply.keepAliveMs, { contentType: wire.streamContentType, keepAlive: wire.keepAlive });
    return;
  }
  if (isMalformed(reply)) {
    if (streaming) {
      const truncated = reply.malformed === "truncated";
      const frames = truncated ? wire.truncatedFrames(request) : wire.garbageFrames(request);
      await writeSse(res, frames, { chunkDelayMs: reply.chunkDelayMs, cutOff: truncated, contentType: wire.streamContentType });
    } else if (reply.malformed === "truncated") {
      writeTruncatedJson(res, JSON.stringify(wire.jsonBody({ text: "This reply never finishes" }, request)));
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{this is not json at all");
    }
    return;
  }
  if (streaming) await writeSse(res, wire.streamFrames(reply, request), { chunkDelayMs: reply.chunkDelayMs, holdMidway: reply.holdMidway, contentType: wire.streamContentType });
  else sendJson(res, 200, wire.jsonBody(reply, request));
}

// One list shaped for both SDKs: OpenAI reads `object`/`owned_by`, Anthropic `type`/`display_name`.
function modelList(ids: string[]) {
  const data = ids.map((id) => ({
    id,
    object: "model",
    type: "model",
    display_name: id,
    created: 1_700_000_000,
    created_at: "2023-11-14T22:13:20Z",
    owned_by: "fake",
  }));
  return { object: "list", data, has_more: false, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null };
}
export { fakeSummaryReply, isSummaryRequest, lastUserText, systemPromptOf } from "./model-server/summarizer.js";
