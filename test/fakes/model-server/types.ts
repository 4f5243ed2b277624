import type { IncomingHttpHeaders } from "node:http";

/** A tool call the fake model makes. A string `arguments` is sent verbatim (to script broken JSON). */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

export interface FakeUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A normal model turn, streamed in several chunks per piece of content. */
export interface ScriptedReply {
  text?: string;
  /** How many stream chunks carry `text` (default 3). */
  textChunks?: number;
  toolCalls?: FakeToolCall[];
  thinking?: string;
  /** Wait this long before the first byte (status line included). */
  delayMs?: number;
  /** Wait this long between stream chunks. */
  chunkDelayMs?: number;
  /** Streams the first half of the frames, then waits for this promise before the rest. */
  holdMidway?: Promise<void>;
  /** Defaults: "toolUse" when there are tool calls, else "stop". */
  stopReason?: "stop" | "length" | "toolUse";
  usage?: Partial<FakeUsage>;
}

/** An HTTP error; `body` defaults to the wire format's error envelope. */
export interface HttpErrorReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** garbage: data lines that are not JSON. truncated: the stream stops before its terminal chunk and the socket is destroyed. */
export interface MalformedReply {
  malformed: "garbage" | "truncated";
  delayMs?: number;
  chunkDelayMs?: number;
}

/**
 * A stream that stalls and stays open until the client gives up: after the response headers
 * (`"headers"`) or after the first frames of a reply (`"mid-reply"`). With `keepAliveMs`, an SSE
 * comment (`: keep-alive`) is written at that interval while it stalls.
 */
export interface StallReply {
  stall: "headers" | "mid-reply";
  keepAliveMs?: number;
  delayMs?: number;
}

export type FakeReply = ScriptedReply | HttpErrorReply | MalformedReply | StallReply;

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined for GET or an empty body). */
  body: any;
  /** Model requests: their size as `requestTokens` counts it. */
  tokens?: number;
  /** True when the request was over the server's `contextWindow` and got an overflow error. */
  overflowed?: boolean;
}

export type Responder = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** What a wire format (Anthropic Messages, OpenAI Chat Completions) must produce. */
export interface WireFormat {
  /** SSE frames of a full reply, each a complete event including its trailing blank line. */
  streamFrames(reply: ScriptedReply, request: RecordedRequest): string[];
  /** Frames for a stream that breaks off before its terminal event. */
  truncatedFrames(request: RecordedRequest): string[];
  /** Frames whose data lines are not JSON (after a valid start). */
  garbageFrames(request: RecordedRequest): string[];
  /** The non-streaming JSON response. */
  jsonBody(reply: ScriptedReply, request: RecordedRequest): unknown;
  /** The error envelope this API uses. */
  errorBody(status: number): unknown;
  /** The streamed answer's content type (default: text/event-stream). */
  streamContentType?: string;
  /** What a stalled stream writes to keep the connection warm (default: an SSE comment). */
  keepAlive?: string;
}

export function isHttpError(reply: FakeReply): reply is HttpErrorReply {
  return typeof (reply as HttpErrorReply).status === "number";
}

export function isMalformed(reply: FakeReply): reply is MalformedReply {
  return typeof (reply as MalformedReply).malformed === "string";
}

export function isStall(reply: FakeReply): reply is StallReply {
  return typeof (reply as StallReply).stall === "string";
}
