import { argumentsText, effectiveStopReason, effectiveUsage, splitIntoPieces, sseFrame } from "./chunking.js";
import type { FakeUsage, RecordedRequest, WireFormat } from "./types.js";

/** The OpenAI Chat Completions wire format (`POST /v1/chat/completions`), streaming and not. */

const FINISH_REASONS = { stop: "stop", length: "length", toolUse: "tool_calls" } as const;

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_fake_${++sequence}`;

function chunkFactory(request: RecordedRequest) {
  const id = nextId("chatcmpl");
  const created = Math.floor(Date.now() / 1000);
  const model = request.body?.model ?? "fake-model";
  return (delta: Record<string, unknown>, finishReason: string | null = null) =>
    sseFrame({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
}

function wireUsage(usage: FakeUsage) {
  const prompt = usage.input + usage.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
  };
}

export const openaiWire: WireFormat = {
  streamFrames(reply, request) {
    const chunk = chunkFactory(request);
    const frames = [chunk({ role: "assistant", content: "" })];
    for (const piece of splitIntoPieces(reply.thinking ?? "")) frames.push(chunk({ reasoning_content: piece }));
    for (const piece of splitIntoPieces(reply.text ?? "", reply.textChunks)) frames.push(chunk({ content: piece }));

    // The first fragment of each call names it; the remaining argument fragments of all
    // calls are interleaved, so a client must key fragments by index, not by arrival order.
    const calls = (reply.toolCalls ?? []).map((call, index) => ({ call, index, id: call.id ?? nextId("call"), pieces: splitIntoPieces(argumentsText(call), 4) }));
    for (const { call, index, id, pieces } of calls) {
      frames.push(chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: pieces.shift() ?? "" } }] }));
    }
    while (calls.some((c) => c.pieces.length > 0)) {
      for (const c of calls) {
        const piece = c.pieces.shift();
        if (piece !== undefined) frames.push(chunk({ tool_calls: [{ index: c.index, function: { arguments: piece } }] }));
      }
    }

    frames.push(chunk({}, FINISH_REASONS[effectiveStopReason(reply)]));
    if (request.body?.stream_options?.include_usage) {
      const usageChunk = JSON.parse(chunk({}).slice("data: ".length));
      frames.push(sseFrame({ ...usageChunk, choices: [], usage: wireUsage(effectiveUsage(reply)) }));
    }
    frames.push(sseFrame("[DONE]"));
    return frames;
  },

  truncatedFrames(request) {
    const chunk = chunkFactory(request);
    return [chunk({ role: "assistant", content: "" }), chunk({ content: "This reply never " }), chunk({ content: "finishes" })];
  },

  garbageFrames(request) {
    const chunk = chunkFactory(request);
    return [chunk({ role: "assistant", content: "" }), "data: {this is not json at all\n\n", sseFrame("[DONE]")];
  },

  jsonBody(reply, request) {
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? nextId("call"),
      type: "function",
      function: { name: call.name, arguments: argumentsText(call) },
    }));
    return {
      id: nextId("chatcmpl"),
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: request.body?.model ?? "fake-model",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: reply.text ?? null,
            ...(reply.thinking ? { reasoning_content: reply.thinking } : {}),
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: FINISH_REASONS[effectiveStopReason(reply)],
        },
      ],
      usage: wireUsage(effectiveUsage(reply)),
    };
  },

  errorBody(status) {
    const type = status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
    return { error: { message: `fake ${status} error`, type, param: null, code: null } };
  },
};
