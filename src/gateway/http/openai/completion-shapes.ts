import { randomUUID } from "node:crypto";
import type { ChatTurnResult } from "./types.js";

/** What every response of one request shares: `chatcmpl_<uuid>`, the creation second, the echoed model. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** The reply when a run produced no text, worded as OpenClaw words it. */
export const EMPTY_REPLY = "No response from OpenClaw.";

export function newCompletionIdentity(model: string | undefined): CompletionIdentity {
  return { id: `chatcmpl_${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: model ?? "openclaw" };
}

/** Agent stop reasons → OpenAI's: `tool_calls` when the run ended with client tool calls (the agent's own tools run inside). */
export function finishReason(result: Pick<ChatTurnResult, "stopReason" | "toolCalls">): "stop" | "length" | "tool_calls" {
  if (result.toolCalls?.length) return "tool_calls";
  return result.stopReason === "length" ? "length" : "stop";
}

/** OpenAI's `tool_calls` entries; `index` is for stream deltas. */
export function toolCallsOf(result: Pick<ChatTurnResult, "toolCalls">, withIndex = false) {
  return (result.toolCalls ?? []).map((call, index) => ({
    ...(withIndex ? { index } : {}),
    id: call.id,
    type: "function" as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

export function usageOf(result: Pick<ChatTurnResult, "usage">) {
  const prompt = nonNegative(result.usage?.input);
  const completion = nonNegative(result.usage?.output);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function chatCompletion(identity: CompletionIdentity, result: ChatTurnResult) {
  return {
    id: identity.id,
    object: "chat.completion",
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message: assistantMessage(result), finish_reason: finishReason(result) }],
    usage: usageOf(result),
  };
}

/** The reply; with client tool calls, them and the text before them (`null` when there is none). */
function assistantMessage(result: ChatTurnResult) {
  if (!result.toolCalls?.length) return { role: "assistant", content: result.text || EMPTY_REPLY };
  return { role: "assistant", content: result.text || null, tool_calls: toolCallsOf(result) };
}

/** One `chat.completion.chunk`; `choices` is empty only for the trailing usage chunk. */
export function chunk(identity: CompletionIdentity, choices: unknown[], extra: Record<string, unknown> = {}) {
  return { id: identity.id, object: "chat.completion.chunk", created: identity.created, model: identity.model, choices, ...extra };
}

function nonNegative(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}
