import type { ServerResponse } from "node:http";
import { EMPTY_REPLY } from "./completion-shapes.js";
import { writeEventStreamHead } from "./sse-writer.js";
import { finishedStatus, functionCallItems, messageItem, outputText, responseObject, type ResponseIdentity } from "./response-shapes.js";
import type { ChatTurnResult } from "./types.js";

/**
 * Writes one streamed response as OpenResponses server-sent events: `response.created`,
 * `response.in_progress`, the message item and its text part opened, `response.output_text.delta`
 * per chunk, then the text, part and item closed, a `function_call` item per client tool call the
 * run ended with (its arguments in one delta), and `response.completed` — or `response.failed`
 * when the turn fails — and `data: [DONE]`. Each event is `event: <type>` + `data: <json>` with a
 * `sequence_number`.
 */
export class ResponsesSseWriter {
  private sequence = 0;
  private text = "";
  private opened = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: ResponseIdentity,
  ) {}

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  open(): void {
    writeEventStreamHead(this.res);
    this.event("response.created", { response: responseObject(this.identity, "in_progress") });
    this.event("response.in_progress", { response: responseObject(this.identity, "in_progress") });
  }

  delta(text: string): void {
    if (!text) return;
    this.openItem();
    this.text += text;
    this.event("response.output_text.delta", { item_id: this.identity.messageId, output_index: 0, content_index: 0, delta: text, logprobs: [] });
  }

  finish(result: ChatTurnResult): void {
    const calls = functionCallItems(this.identity, result);
    // A turn that streamed nothing still answers: its final text (or the placeholder) as one delta.
    if (!this.text) this.delta(result.text || (calls.length > 0 ? "" : EMPTY_REPLY));
    const text = this.text;
    if (text) {
      const part = { item_id: this.identity.messageId, output_index: 0, content_index: 0 };
      this.event("response.output_text.done", { ...part, text, logprobs: [] });
      this.event("response.content_part.done", { ...part, part: outputText(text) });
      this.event("response.output_item.done", { output_index: 0, item: messageItem(this.identity, text, "completed") });
    }
    const opening = functionCallItems(this.identity, result, "in_progress");
    calls.forEach((item, i) => {
      const output_index = (text ? 1 : 0) + i;
      this.event("response.output_item.added", { output_index, item: opening[i] });
      this.event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta: item.arguments });
      this.event("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments });
      this.event("response.output_item.done", { output_index, item });
    });
    const status = finishedStatus(result);
    this.event(status === "completed" ? "response.completed" : "response.incomplete", { response: responseObject(this.identity, status, { ...result, text }) });
    this.done();
  }

  /** After the 200 went out a failure is told in-band: `response.failed` with the error. */
  fail(code: string, message: string): void {
    this.event("response.failed", { response: responseObject(this.identity, "failed", undefined, { code, message }) });
    this.done();
  }

  private openItem(): void {
    if (this.opened) return;
    this.opened = true;
    this.event("response.output_item.added", { output_index: 0, item: messageItem(this.identity, "", "in_progress") });
    this.event("response.content_part.added", { item_id: this.identity.messageId, output_index: 0, content_index: 0, part: outputText("") });
  }

  private done(): void {
    if (this.closed) return;
    this.res.write("data: [DONE]\n\n");
    this.res.end();
  }

  private event(type: string, payload: Record<string, unknown>): void {
    if (this.closed) return;
    this.res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...payload })}\n\n`);
  }
}
