import { effectiveStopReason, effectiveUsage, splitIntoPieces } from "./chunking.js";
import type { RecordedRequest, ScriptedReply, WireFormat } from "./types.js";

/**
 * Ollama's native chat API (`POST /api/chat`): one JSON object per line, text and thinking in
 * pieces, each tool call whole with its arguments as an object, and the counts on the last line
 * (`done: true`). Errors are `{"error": "…"}`.
 */

let sequence = 0;

function lineFactory(request: RecordedRequest) {
  const model = request.body?.model ?? "fake-model";
  return (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: "assistant", content: "", ...message }, done: false, ...extra })}\n`;
}

function toolCalls(reply: ScriptedReply) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    // Older servers send no id; a scripted id is sent as newer servers send theirs.
    ...(call.id ? { id: call.id } : {}),
    function: { index, name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : call.arguments },
  }));
}

function doneFields(reply: ScriptedReply) {
  const usage = effectiveUsage(reply);
  const stop = effectiveStopReason(reply);
  return { done: true, done_reason: stop === "length" ? "length" : "stop", total_duration: 1_000_000, prompt_eval_count: usage.input, eval_count: usage.output };
}

export const ollamaWire: WireFormat = {
  streamContentType: "application/x-ndjson",
  // Ollama sends nothing while it loads a model; an empty line is the nearest thing to a keep-alive its stream can carry.
  keepAlive: "\n",

  streamFrames(reply, request) {
    const line = lineFactory(request);
    const frames: string[] = [];
    for (const piece of splitIntoPieces(reply.thinking ?? "")) frames.push(line({ thinking: piece }));
    for (const piece of splitIntoPieces(reply.text ?? "", reply.textChunks)) frames.push(line({ content: piece }));
    const calls = toolCalls(reply);
    if (calls.length > 0) frames.push(line({ tool_calls: calls }));
    frames.push(line({}, doneFields(reply)));
    return frames;
  },

  truncatedFrames(request) {
    const line = lineFactory(request);
    return [line({ content: "This reply never " }), line({ content: "finishes" })];
  },

  garbageFrames(request) {
    const line = lineFactory(request);
    return [line({ content: "Hello" }), "{this is not json at all\n"];
  },

  jsonBody(reply, request) {
    const calls = toolCalls(reply);
    return {
      model: request.body?.model ?? "fake-model",
      created_at: new Date().toISOString(),
      message: { role: "assistant", content: reply.text ?? "", ...(reply.thinking ? { thinking: reply.thinking } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) },
      ...doneFields(reply),
      id: ++sequence,
    };
  },

  errorBody(status) {
    return { error: `fake ${status} error` };
  },
};
