import type { AssistantTurn } from "./assistant-turn.js";
import { urlWithoutCredentials } from "./model-errors.js";
import { ReplyTextReader } from "./think-tags.js";
import { toolCallArguments } from "./tool-arguments.js";
import type { ClassifiedModelError, ModelStreamEvent, ReadResult, ResolvedModel } from "./types.js";

/** One line of `/api/chat`'s stream. */
export interface OllamaChunk {
  message?: {
    content?: unknown;
    thinking?: unknown;
    tool_calls?: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
  };
  done?: unknown;
  done_reason?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
}

/**
 * Reads `/api/chat` lines into an AssistantTurn. Ollama sends each tool call whole (its arguments
 * already an object) and the token counts on the last line, the one with `done: true`. A call
 * without an id (older servers) gets one, so its result can be paired with it.
 */
export class OllamaChunkReader {
  private finished = false;
  private doneReason: string | undefined;
  private lines = 0;
  private calls = 0;

  private readonly reply: ReplyTextReader;

  constructor(private readonly turn: AssistantTurn) {
    this.reply = new ReplyTextReader(turn);
  }

  read(chunk: OllamaChunk): ReadResult {
    this.lines += 1;
    if (typeof chunk !== "object" || chunk === null || Array.isArray(chunk)) {
      return { events: [], failure: { kind: "malformed", retryable: false, message: "stream line is not an object" } };
    }
    const events: ModelStreamEvent[] = [];
    const message = chunk.message;
    if (typeof message?.thinking === "string" && message.thinking) this.reply.thinking(message.thinking, events);
    // A model without Ollama's thinking support may write its reasoning into the text between think tags.
    if (typeof message?.content === "string" && message.content) this.reply.text(message.content, events);
    for (const call of message?.tool_calls ?? []) {
      const name = call.function?.name;
      const id = typeof call.id === "string" && call.id ? call.id : `ollama_call_${(this.calls += 1)}_${Date.now().toString(36)}`;
      if (typeof name !== "string" || !name) return { events, failure: { kind: "malformed", retryable: false, message: `tool call ${id} has no function name` } };
      const block = { type: "toolCall" as const, id, name, ...callArguments(call.function?.arguments) };
      this.turn.addToolCall(block);
      events.push({ type: "toolcall", call: block });
    }
    if (chunk.done === true) {
      this.finished = true;
      this.doneReason = typeof chunk.done_reason === "string" ? chunk.done_reason : undefined;
      const input = typeof chunk.prompt_eval_count === "number" ? chunk.prompt_eval_count : 0;
      const output = typeof chunk.eval_count === "number" ? chunk.eval_count : 0;
      events.push({ type: "usage", usage: this.turn.updateUsage({ input, output, cacheRead: 0, cacheWrite: 0 }) });
    }
    return { events };
  }

  finish(): ModelStreamEvent {
    this.reply.end();
    if (!this.finished && this.lines === 0) return this.turn.fail(noStreamAtAll(this.turn.model));
    if (!this.finished) return this.turn.fail({ kind: "malformed", retryable: true, message: "stream ended without its done line" });
    if (this.doneReason === "length") return this.turn.done("length");
    return this.turn.done(this.turn.hasToolCalls() ? "toolUse" : "stop");
  }
}

/** Ollama gives arguments as an object; some models' servers send them as JSON text. */
function callArguments(value: unknown): { arguments: Record<string, unknown>; argumentsError?: string } {
  if (value === undefined || value === null) return { arguments: {} };
  if (typeof value === "object" && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
  if (typeof value === "string") return toolCallArguments(value);
  return { arguments: {}, argumentsError: "arguments must be a JSON object" };
}

/** A 2xx answer without a single line: the URL answered, but not as Ollama's chat API. */
function noStreamAtAll(model: ResolvedModel): ClassifiedModelError {
  const url = `${urlWithoutCredentials((model.baseUrl ?? "").replace(/\/+$/, ""))}/api/chat`;
  return {
    kind: "malformed",
    retryable: true,
    message: `POST ${url} answered without a single line of Ollama's chat stream; check that models.providers.${model.provider}.baseUrl is the Ollama server's root URL (http://host:11434, no /v1)`,
  };
}
