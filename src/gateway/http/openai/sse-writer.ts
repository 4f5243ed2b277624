import type { ServerResponse } from "node:http";
import { chunk, EMPTY_REPLY, finishReason, toolCallsOf, usageOf, type CompletionIdentity } from "./completion-shapes.js";
import type { ChatTurnResult } from "./types.js";

/**
 * Writes one streamed chat completion as server-sent events (see docs/http-api.md, "Streaming"): a
 * role chunk, content deltas, a chunk carrying `finish_reason`, an optional usage chunk, then
 * `data: [DONE]`.
 *
 * Deltas are small and arrive at model speed, so Node's own write buffer is enough back-pressure;
 * a vanished client makes every later write a no-op instead of an error.
 */
export class ChatCompletionSseWriter {
  private sentContent = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: CompletionIdentity,
    private readonly includeUsage: boolean,
  ) {}

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  /** Headers and the role chunk go out at once, so clients see the stream start before the model answers. */
  open(): void {
    writeEventStreamHead(this.res);
    this.event(chunk(this.identity, [{ index: 0, delta: { role: "assistant" } }]));
  }

  delta(text: string): void {
    if (!text) return;
    this.sentContent = true;
    this.event(chunk(this.identity, [{ index: 0, delta: { content: text }, finish_reason: null }]));
  }

  /**
   * A turn that streamed nothing still answers: its final text (or upstream's placeholder) as one
   * chunk. Client tool calls follow the text as one `delta.tool_calls` chunk, whole.
   */
  finish(result: ChatTurnResult): void {
    const calls = toolCallsOf(result, true);
    if (!this.sentContent && calls.length === 0) this.delta(result.text || EMPTY_REPLY);
    else if (!this.sentContent) this.delta(result.text);
    if (calls.length > 0) this.event(chunk(this.identity, [{ index: 0, delta: { tool_calls: calls }, finish_reason: null }]));
    this.event(chunk(this.identity, [{ index: 0, delta: {}, finish_reason: finishReason(result) }]));
    if (this.includeUsage) this.event(chunk(this.identity, [], { usage: usageOf(result) }));
    this.done();
  }

  /**
   * A failure after the 200 went out cannot change the status any more. Like upstream, the error
   * becomes a final content chunk `Error: …` with `finish_reason: "stop"`, then `[DONE]`, so every
   * OpenAI client ends the stream normally and shows the text.
   */
  fail(message: string): void {
    this.event(chunk(this.identity, [{ index: 0, delta: { content: `Error: ${message}` }, finish_reason: "stop" }]));
    this.done();
  }

  private done(): void {
    if (this.closed) return;
    this.res.write("data: [DONE]\n\n");
    this.res.end();
  }

  private event(payload: unknown): void {
    if (this.closed) return;
    this.res.write(`data: ${JSON.stringify(payload)}\n\n`);
  }
}

/** The 200 and headers of a server-sent event stream. */
export function writeEventStreamHead(res: ServerResponse): void {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    // Reverse proxies (nginx) buffer responses by default, which would hold back every delta.
    "X-Accel-Buffering": "no",
  });
}
