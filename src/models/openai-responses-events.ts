import type OpenAI from "openai";
import type { ModelStreamEvent } from "./types.js";
import type { AssistantTurn } from "./assistant-turn.js";
import { toolCallArguments } from "./tool-arguments.js";
import type { ReadResult } from "./types.js";

interface PendingCall {
  callId: string;
  name: string;
  json: string;
}

/**
 * Reads Responses API stream events into an AssistantTurn: text and reasoning deltas as they
 * come, a function call once its item is done, usage and the stop reason from the terminal
 * `response.completed` / `response.incomplete`. `response.failed` and `error` events end the
 * turn as a provider error.
 */
export class ResponsesEventReader {
  private readonly calls = new Map<string, PendingCall>();
  private end: "completed" | "incomplete" | undefined;

  constructor(private readonly turn: AssistantTurn) {}

  read(event: OpenAI.Responses.ResponseStreamEvent): ReadResult {
    if (typeof event !== "object" || event === null) {
      return { events: [], failure: { kind: "malformed", retryable: false, message: "stream event is not an object" } };
    }
    switch (event.type) {
      case "response.output_text.delta":
        this.turn.appendText(event.delta);
        return { events: [{ type: "text_delta", delta: event.delta }] };
      case "response.reasoning_text.delta":
      case "response.reasoning_summary_text.delta":
        this.turn.appendThinking(event.delta);
        return { events: [{ type: "thinking_delta", delta: event.delta }] };
      case "response.output_item.added":
        if (event.item.type === "function_call") {
          this.turn.closeBlock();
          this.calls.set(event.item.id ?? event.item.call_id, { callId: event.item.call_id, name: event.item.name, json: event.item.arguments ?? "" });
        } else this.turn.closeBlock();
        return { events: [] };
      case "response.function_call_arguments.delta": {
        const pending = this.calls.get(event.item_id);
        if (pending) pending.json += event.delta;
        return { events: [] };
      }
      case "response.output_item.done":
        return event.item.type === "function_call" ? this.finishCall(event.item) : { events: [] };
      case "response.completed":
      case "response.incomplete":
        this.end = event.type === "response.completed" ? "completed" : "incomplete";
        return { events: event.response.usage ? [this.usageEvent(event.response.usage)] : [] };
      case "response.failed": {
        const error = event.response.error;
        return { events: [], failure: failureOf(error?.code, error?.message ?? "the response failed") };
      }
      case "error":
        return { events: [], failure: failureOf(event.code ?? undefined, event.message) };
      default:
        return { events: [] };
    }
  }

  finish(): ModelStreamEvent {
    if (!this.end) return this.turn.fail({ kind: "malformed", retryable: true, message: "stream ended before response.completed" });
    if (this.end === "incomplete") return this.turn.done("length");
    return this.turn.done(this.turn.hasToolCalls() ? "toolUse" : "stop");
  }

  private finishCall(item: OpenAI.Responses.ResponseFunctionToolCall): ReadResult {
    const key = item.id ?? item.call_id;
    const pending = this.calls.get(key);
    this.calls.delete(key);
    const raw = item.arguments || pending?.json || "";
    const call = { type: "toolCall" as const, id: item.call_id, name: item.name, ...toolCallArguments(raw) };
    this.turn.addToolCall(call);
    return { events: [{ type: "toolcall", call }] };
  }

  // input_tokens includes cached tokens; our `input` counts only the uncached part.
  private usageEvent(usage: OpenAI.Responses.ResponseUsage): ModelStreamEvent {
    const cached = usage.input_tokens_details?.cached_tokens ?? 0;
    return { type: "usage", usage: this.turn.updateUsage({ input: Math.max(0, usage.input_tokens - cached), output: usage.output_tokens, cacheRead: cached, cacheWrite: 0 }) };
  }
}

function failureOf(code: string | undefined, message: string) {
  const c = (code ?? "").toLowerCase();
  if (c.includes("rate_limit")) return { kind: "rate_limit" as const, retryable: true, message };
  if (c.includes("context") || /context.{0,20}(length|window)/i.test(message)) return { kind: "context_length" as const, retryable: false, message };
  if (c.includes("invalid")) return { kind: "unknown" as const, retryable: false, message };
  return { kind: "server" as const, retryable: true, message };
}
