import type Anthropic from "@anthropic-ai/sdk";
import type { Usage } from "./messages.js";
import type { ModelStreamEvent } from "./types.js";
import type { AssistantTurn } from "./assistant-turn.js";
import { toolCallArguments } from "./tool-arguments.js";
import type { ReadResult } from "./types.js";

interface PendingToolUse {
  id: string;
  name: string;
  json: string;
  initialInput: unknown;
}

/**
 * Reads the Messages API event stream into an AssistantTurn. Blocks are indexed and arrive
 * one after another; a tool call is complete (and emitted) at its `content_block_stop`.
 */
export class AnthropicEventReader {
  private readonly toolUses = new Map<number, PendingToolUse>();
  private stopReason: Anthropic.StopReason | null = null;
  private sawMessageStop = false;

  constructor(private readonly turn: AssistantTurn) {}

  read(event: Anthropic.RawMessageStreamEvent): ReadResult {
    if (typeof event !== "object" || event === null) {
      return { events: [], failure: { kind: "malformed", retryable: false, message: "stream event is not an object" } };
    }
    switch (event.type) {
      case "message_start":
        return { events: [this.usageEvent(event.message.usage)] };
      case "content_block_start":
        return { events: this.startBlock(event.index, event.content_block) };
      case "content_block_delta":
        return { events: this.delta(event.index, event.delta) };
      case "content_block_stop":
        return this.stopBlock(event.index);
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        return { events: [this.usageEvent(event.usage)] };
      case "message_stop":
        this.sawMessageStop = true;
        return { events: [] };
      default:
        // Newer event types (the SDK passes unknown ones through) carry nothing we use.
        return { events: [] };
    }
  }

  /** The terminal event once the body ended: `done`, or `malformed` if it never finished. */
  finish(): ModelStreamEvent {
    if (!this.sawMessageStop) {
      return this.turn.fail({ kind: "malformed", retryable: true, message: "stream ended before message_stop" });
    }
    return this.turn.done(this.mapStopReason());
  }

  private startBlock(index: number, block: Anthropic.RawContentBlockStartEvent["content_block"]): ModelStreamEvent[] {
    this.turn.closeBlock();
    if (block.type === "text") {
      this.turn.beginText(block.text);
      return block.text ? [{ type: "text_delta", delta: block.text }] : [];
    }
    if (block.type === "thinking") {
      this.turn.beginThinking(block.thinking, block.signature || undefined);
      return block.thinking ? [{ type: "thinking_delta", delta: block.thinking }] : [];
    }
    if (block.type === "tool_use") this.toolUses.set(index, { id: block.id, name: block.name, json: "", initialInput: block.input });
    // Redacted thinking and server-tool blocks have no place in our transcript format.
    return [];
  }

  private delta(index: number, delta: Anthropic.RawContentBlockDelta): ModelStreamEvent[] {
    switch (delta.type) {
      case "text_delta":
        this.turn.appendText(delta.text);
        return [{ type: "text_delta", delta: delta.text }];
      case "thinking_delta":
        this.turn.appendThinking(delta.thinking);
        return [{ type: "thinking_delta", delta: delta.thinking }];
      case "signature_delta":
        this.turn.signThinking(delta.signature);
        return [];
      case "input_json_delta": {
        const pending = this.toolUses.get(index);
        if (pending) pending.json += delta.partial_json;
        return [];
      }
      default:
        return [];
    }
  }

  private stopBlock(index: number): ReadResult {
    const pending = this.toolUses.get(index);
    this.turn.closeBlock();
    if (!pending) return { events: [] };
    this.toolUses.delete(index);
    const raw = pending.json || initialJson(pending.initialInput);
    const call = { type: "toolCall" as const, id: pending.id, name: pending.name, ...toolCallArguments(raw) };
    this.turn.addToolCall(call);
    return { events: [{ type: "toolcall", call }] };
  }

  // message_start reports input and cache counters; message_delta the cumulative totals,
  // where a null field means "unchanged".
  private usageEvent(usage: Partial<Anthropic.Usage> | Anthropic.MessageDeltaUsage): ModelStreamEvent {
    const update: Partial<Usage> = {};
    if (usage.input_tokens != null) update.input = usage.input_tokens;
    if (usage.output_tokens != null) update.output = usage.output_tokens;
    if (usage.cache_read_input_tokens != null) update.cacheRead = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens != null) update.cacheWrite = usage.cache_creation_input_tokens;
    return { type: "usage", usage: this.turn.updateUsage(update) };
  }

  private mapStopReason(): "stop" | "length" | "toolUse" {
    if (this.stopReason === "max_tokens" || this.stopReason === "model_context_window_exceeded") return "length";
    if (this.turn.hasToolCalls()) return "toolUse";
    return "stop";
  }
}

// A tool_use whose input arrived whole in content_block_start (no deltas) still counts.
function initialJson(input: unknown): string {
  if (input && typeof input === "object" && Object.keys(input).length > 0) return JSON.stringify(input);
  return "";
}
