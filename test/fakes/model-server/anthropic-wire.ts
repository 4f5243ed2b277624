import { argumentsText, effectiveStopReason, effectiveUsage, splitIntoPieces, sseFrame } from "./chunking.js";
import type { RecordedRequest, ScriptedReply, WireFormat } from "./types.js";

/** The Anthropic Messages API wire format (`POST /v1/messages`), streaming and not. */

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use" } as const;

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_fake_${++sequence}`;

function event(type: string, fields: Record<string, unknown>): string {
  return sseFrame({ type, ...fields }, type);
}

function messageShell(request: RecordedRequest, reply: ScriptedReply) {
  const usage = effectiveUsage(reply);
  return {
    id: nextId("msg"),
    type: "message",
    role: "assistant",
    model: request.body?.model ?? "fake-model",
    content: [] as unknown[],
    stop_reason: null as string | null,
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: 1,
      cache_read_input_tokens: usage.cacheRead,
      cache_creation_input_tokens: usage.cacheWrite,
    },
  };
}

function toolUseId(call: { id?: string }): string {
  return call.id ?? nextId("toolu");
}

export const anthropicWire: WireFormat = {
  streamFrames(reply, request) {
    const usage = effectiveUsage(reply);
    const frames = [event("message_start", { message: messageShell(request, reply) }), event("ping", {})];
    let index = 0;
    if (reply.thinking) {
      frames.push(event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }));
      for (const piece of splitIntoPieces(reply.thinking)) {
        frames.push(event("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } }));
      }
      frames.push(event("content_block_delta", { index, delta: { type: "signature_delta", signature: `sig_${index}_fake` } }));
      frames.push(event("content_block_stop", { index }));
      index++;
    }
    if (reply.text) {
      frames.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const piece of splitIntoPieces(reply.text, reply.textChunks)) {
        frames.push(event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
      }
      frames.push(event("content_block_stop", { index }));
      index++;
    }
    for (const call of reply.toolCalls ?? []) {
      const block = { type: "tool_use", id: toolUseId(call), name: call.name, input: {} };
      frames.push(event("content_block_start", { index, content_block: block }));
      for (const piece of splitIntoPieces(argumentsText(call), 4)) {
        frames.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }));
      }
      frames.push(event("content_block_stop", { index }));
      index++;
    }
    frames.push(
      event("message_delta", {
        delta: { stop_reason: STOP_REASONS[effectiveStopReason(reply)], stop_sequence: null },
        usage: {
          input_tokens: usage.input,
          output_tokens: usage.output,
          cache_read_input_tokens: usage.cacheRead,
          cache_creation_input_tokens: usage.cacheWrite,
        },
      }),
    );
    frames.push(event("message_stop", {}));
    return frames;
  },

  truncatedFrames(request) {
    return [
      event("message_start", { message: messageShell(request, {}) }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "This reply never " } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "finishes" } }),
    ];
  },

  garbageFrames(request) {
    return [
      event("message_start", { message: messageShell(request, {}) }),
      "event: content_block_delta\ndata: {this is not json at all\n\n",
      "event: message_stop\ndata: <<garbage>>\n\n",
    ];
  },

  jsonBody(reply, request) {
    const usage = effectiveUsage(reply);
    const message = messageShell(request, reply);
    if (reply.thinking) message.content.push({ type: "thinking", thinking: reply.thinking, signature: "sig_0_fake" });
    if (reply.text) message.content.push({ type: "text", text: reply.text, citations: null });
    for (const call of reply.toolCalls ?? []) {
      message.content.push({ type: "tool_use", id: toolUseId(call), name: call.name, input: JSON.parse(argumentsText(call)) });
    }
    message.stop_reason = STOP_REASONS[effectiveStopReason(reply)];
    message.usage.output_tokens = usage.output;
    return message;
  },

  errorBody(status) {
    const type =
      status === 401
        ? "authentication_error"
        : status === 403
          ? "permission_error"
          : status === 404
            ? "not_found_error"
            : status === 429
              ? "rate_limit_error"
              : status === 529
                ? "overloaded_error"
                : status >= 500
                  ? "api_error"
                  : "invalid_request_error";
    return { type: "error", error: { type, message: `fake ${status} error` } };
  },
};
