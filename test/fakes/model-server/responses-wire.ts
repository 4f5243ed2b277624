import { argumentsText, effectiveStopReason, effectiveUsage, splitIntoPieces, sseFrame } from "./chunking.js";
import type { FakeUsage, RecordedRequest, ScriptedReply, WireFormat } from "./types.js";

/** The OpenAI Responses API wire format (`POST /v1/responses`), streaming and not. */

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_fake_${++sequence}`;

function wireUsage(usage: FakeUsage) {
  const input = usage.input + usage.cacheRead;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output,
  };
}

function responseShell(id: string, request: RecordedRequest, status: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: request.body?.model ?? "fake-model",
    output: [],
    error: null,
    incomplete_details: null,
    usage: null,
    ...extra,
  };
}

/** Every output item of a reply, in order: reasoning, the message, then each function call. */
function outputItems(reply: ScriptedReply) {
  const items: Record<string, any>[] = [];
  if (reply.thinking) items.push({ type: "reasoning", id: nextId("rs"), summary: [{ type: "summary_text", text: reply.thinking }] });
  if (reply.text) items.push({ type: "message", id: nextId("msg"), status: "completed", role: "assistant", content: [{ type: "output_text", text: reply.text, annotations: [] }] });
  for (const call of reply.toolCalls ?? []) {
    items.push({ type: "function_call", id: nextId("fc"), call_id: call.id ?? nextId("call"), name: call.name, arguments: argumentsText(call), status: "completed" });
  }
  return items;
}

export const responsesWire: WireFormat = {
  streamFrames(reply, request) {
    const id = nextId("resp");
    let seq = 0;
    const frame = (type: string, payload: Record<string, unknown>) => sseFrame({ type, sequence_number: seq++, ...payload }, type);
    const frames = [
      frame("response.created", { response: responseShell(id, request, "in_progress") }),
      frame("response.in_progress", { response: responseShell(id, request, "in_progress") }),
    ];
    const items = outputItems(reply);
    items.forEach((item, index) => {
      if (item.type === "reasoning") {
        frames.push(frame("response.output_item.added", { output_index: index, item: { ...item, summary: [] } }));
        for (const piece of splitIntoPieces(reply.thinking ?? ""))
          frames.push(frame("response.reasoning_summary_text.delta", { item_id: item.id, output_index: index, summary_index: 0, delta: piece }));
      } else if (item.type === "message") {
        frames.push(frame("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", content: [] } }));
        frames.push(frame("response.content_part.added", { item_id: item.id, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }));
        for (const piece of splitIntoPieces(reply.text ?? "", reply.textChunks))
          frames.push(frame("response.output_text.delta", { item_id: item.id, output_index: index, content_index: 0, delta: piece, logprobs: [] }));
        frames.push(frame("response.output_text.done", { item_id: item.id, output_index: index, content_index: 0, text: reply.text, logprobs: [] }));
      } else {
        frames.push(frame("response.output_item.added", { output_index: index, item: { ...item, arguments: "", status: "in_progress" } }));
        for (const piece of splitIntoPieces(item.arguments, 4))
          frames.push(frame("response.function_call_arguments.delta", { item_id: item.id, output_index: index, delta: piece }));
        frames.push(frame("response.function_call_arguments.done", { item_id: item.id, output_index: index, arguments: item.arguments }));
      }
      frames.push(frame("response.output_item.done", { output_index: index, item }));
    });
    const incomplete = effectiveStopReason(reply) === "length";
    const final = responseShell(id, request, incomplete ? "incomplete" : "completed", {
      output: items,
      usage: wireUsage(effectiveUsage(reply)),
      ...(incomplete ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
    });
    frames.push(frame(incomplete ? "response.incomplete" : "response.completed", { response: final }));
    return frames;
  },

  truncatedFrames(request) {
    const id = nextId("resp");
    const itemId = nextId("msg");
    return [
      sseFrame({ type: "response.created", sequence_number: 0, response: responseShell(id, request, "in_progress") }, "response.created"),
      sseFrame(
        { type: "response.output_text.delta", sequence_number: 1, item_id: itemId, output_index: 0, content_index: 0, delta: "This reply never ", logprobs: [] },
        "response.output_text.delta",
      ),
      sseFrame(
        { type: "response.output_text.delta", sequence_number: 2, item_id: itemId, output_index: 0, content_index: 0, delta: "finishes", logprobs: [] },
        "response.output_text.delta",
      ),
    ];
  },

  garbageFrames(request) {
    return [
      sseFrame({ type: "response.created", sequence_number: 0, response: responseShell(nextId("resp"), request, "in_progress") }, "response.created"),
      "event: response.output_text.delta\ndata: {this is not json at all\n\n",
    ];
  },

  jsonBody(reply, request) {
    return responseShell(nextId("resp"), request, effectiveStopReason(reply) === "length" ? "incomplete" : "completed", {
      output: outputItems(reply),
      usage: wireUsage(effectiveUsage(reply)),
    });
  },

  errorBody(status) {
    const type = status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
    return { error: { message: `fake ${status} error`, type, param: null, code: null } };
  },
};
