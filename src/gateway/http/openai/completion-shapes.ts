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

/** Agent stop reasons → OpenAI's. Tools run inside the gateway, so a finished run is `stop`. */
export function finishReason(stopReason: string): "stop" | "length" {
  return stopReason === "length" ? "length" : "stop";
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
    choices: [{ index: 0, message: { role: "assistant", content: result.text || EMPTY_REPLY }, finish_reason: finishReason(result.stopReason) }],
    usage: usageOf(result),
  };
}

/** One `chat.completion.chunk`; `choices` is empty only for the trailing usage chunk. */
export function chunk(identity: CompletionIdentity, choices: unknown[], extra: Record<string, unknown> = {}) {
  return { id: identity.id, object: "chat.completion.chunk", created: identity.created, model: identity.model, choices, ...extra };
}

function nonNegative(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}
