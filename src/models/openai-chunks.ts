import type OpenAI from "openai";
import type { ClassifiedModelError, ModelStreamEvent, ResolvedModel } from "./types.js";
import type { AssistantTurn } from "./assistant-turn.js";
import { ReplyTextReader } from "./think-tags.js";
import { urlWithoutCredentials } from "./model-errors.js";
import { toolCallArguments } from "./tool-arguments.js";
import type { ReadResult } from "./types.js";

interface PendingCall {
  id: string;
  name: string;
  json: string;
}

type Delta = OpenAI.ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };

/**
 * Reads Chat Completions chunks into an AssistantTurn. Tool calls arrive as fragments keyed
 * by `index` (fragments of parallel calls may interleave); they are complete only when
 * `finish_reason` arrives, so that is when each is parsed and emitted, in index order. The
 * usage chunk comes after that, so the stream is read to its end before `done`.
 */
export class OpenAIChunkReader {
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: string | null = null;
  private chunks = 0;
  private readonly reply: ReplyTextReader;

  constructor(private readonly turn: AssistantTurn) {
    this.reply = new ReplyTextReader(turn);
  }

  read(chunk: OpenAI.ChatCompletionChunk): ReadResult {
    this.chunks += 1;
    if (typeof chunk !== "object" || chunk === null) {
      return { events: [], failure: { kind: "malformed", retryable: false, message: "stream chunk is not an object" } };
    }
    const events: ModelStreamEvent[] = [];
    if (chunk.usage) events.push(this.usageEvent(chunk.usage));
    // n is never set, so there is exactly one choice (none in the usage chunk).
    const choice = chunk.choices?.[0];
    if (!choice) return { events };
    events.push(...this.delta((choice.delta ?? {}) as Delta));
    if (choice.finish_reason && this.finishReason === null) {
      this.finishReason = choice.finish_reason;
      return this.flushToolCalls(events);
    }
    return { events };
  }

  finish(): ModelStreamEvent {
    this.reply.end();
    if (this.finishReason === null && this.chunks === 0) return this.turn.fail(noStreamAtAll(this.turn.model));
    if (this.finishReason === null) {
      return this.turn.fail({ kind: "malformed", retryable: true, message: "stream ended without a finish_reason" });
    }
    // OpenAI-compatible servers report a failed generation this way; it behaves like a 500.
    if ((this.finishReason as string) === "error") {
      return this.turn.fail({ kind: "server", retryable: true, message: 'provider ended the stream with finish_reason "error"' });
    }
    if (this.finishReason === "length") return this.turn.done("length");
    // Some compatible servers say "stop" even when the turn ends in tool calls.
    return this.turn.done(this.turn.hasToolCalls() ? "toolUse" : "stop");
  }

  private delta(delta: Delta): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    // DeepSeek-style servers stream reasoning as `reasoning_content`, OpenRouter as `reasoning`.
    const reasoning = typeof delta.reasoning_content === "string" ? delta.reasoning_content : delta.reasoning;
    if (typeof reasoning === "string" && reasoning) this.reply.thinking(reasoning, events);
    // Local models often write their reasoning into the text between think tags.
    if (typeof delta.content === "string" && delta.content) this.reply.text(delta.content, events);
    else if (typeof delta.refusal === "string" && delta.refusal) this.reply.plainText(delta.refusal, events);
    for (const fragment of delta.tool_calls ?? []) {
      const index = fragment.index ?? 0;
      const pending = this.calls.get(index) ?? { id: "", name: "", json: "" };
      this.calls.set(index, pending);
      if (fragment.id && !pending.id) pending.id = fragment.id;
      if (fragment.function?.name && !pending.name) pending.name = fragment.function.name;
      if (fragment.function?.arguments) pending.json += fragment.function.arguments;
    }
    return events;
  }

  private flushToolCalls(events: ModelStreamEvent[]): ReadResult {
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b);
    this.calls.clear();
    for (const [index, pending] of ordered) {
      // Some servers omit ids; the transcript needs one to pair the result with the call.
      const id = pending.id || `call_${index}_${Date.now().toString(36)}`;
      if (!pending.name) {
        return { events, failure: { kind: "malformed", retryable: false, message: `tool call ${id} has no function name` } };
      }
      const call = { type: "toolCall" as const, id, name: pending.name, ...toolCallArguments(pending.json) };
      this.turn.addToolCall(call);
      events.push({ type: "toolcall", call });
    }
    return { events };
  }

  // prompt_tokens includes cached tokens; our `input` counts only the uncached part, as
  // Anthropic's does, so totals mean the same thing across providers.
  private usageEvent(usage: OpenAI.CompletionUsage): ModelStreamEvent {
    const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
    const input = Math.max(0, (usage.prompt_tokens ?? 0) - cached);
    return { type: "usage", usage: this.turn.updateUsage({ input, output: usage.completion_tokens ?? 0, cacheRead: cached, cacheWrite: 0 }) };
  }
}

/**
 * A 2xx answer without a single chunk: the URL answered, but not as a Chat Completions stream
 * (a web page, a UI's port, another API). The likely fix is the baseUrl.
 */
function noStreamAtAll(model: ResolvedModel): ClassifiedModelError {
  const url = `${urlWithoutCredentials((model.baseUrl ?? "").replace(/\/+$/, ""))}/chat/completions`;
  return {
    kind: "malformed",
    retryable: true,
    message: `POST ${url} answered without a single Chat Completions stream event; check that models.providers.${model.provider}.baseUrl is the server's OpenAI-compatible API root (usually ending in /v1)`,
  };
}
