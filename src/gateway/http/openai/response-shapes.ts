import { randomUUID } from "node:crypto";
import { EMPTY_REPLY } from "./completion-shapes.js";
import type { ParsedResponsesRequest } from "./parse-responses-request.js";
import type { ChatTurnResult } from "./types.js";

/** What every event of one response shares: `resp_<uuid>`, its message item id, the creation second, the echoed request. */
export interface ResponseIdentity {
  id: string;
  messageId: string;
  createdAt: number;
  request: ParsedResponsesRequest;
}

export function newResponseIdentity(request: ParsedResponsesRequest): ResponseIdentity {
  const hex = randomUUID().replace(/-/g, "");
  return { id: `resp_${hex}`, messageId: `msg_${hex}`, createdAt: Math.floor(Date.now() / 1000), request };
}

export type ResponseStatus = "in_progress" | "completed" | "failed" | "incomplete";

/** The assistant message output item holding `text`. */
export function messageItem(identity: ResponseIdentity, text: string, status: "in_progress" | "completed") {
  return {
    type: "message",
    id: identity.messageId,
    status,
    role: "assistant",
    content: status === "in_progress" && text === "" ? [] : [outputText(text)],
  };
}

export function outputText(text: string) {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

/** The `response` object (OpenAI's shape), for the JSON answer and the lifecycle events. */
export function responseObject(identity: ResponseIdentity, status: ResponseStatus, result?: ChatTurnResult, error?: { code: string; message: string }) {
  const { request } = identity;
  const text = result ? result.text || EMPTY_REPLY : "";
  const input = Math.max(0, Math.round(result?.usage.input ?? 0));
  const output = Math.max(0, Math.round(result?.usage.output ?? 0));
  return {
    id: identity.id,
    object: "response",
    created_at: identity.createdAt,
    status,
    model: request.model ?? "openclaw",
    output: status === "completed" || status === "incomplete" ? [messageItem(identity, text, "completed")] : [],
    error: error ?? null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: request.instructions ?? null,
    previous_response_id: request.previousResponseId ?? null,
    parallel_tool_calls: false,
    tool_choice: "auto",
    tools: [],
    temperature: request.temperature ?? null,
    top_p: request.topP ?? null,
    max_output_tokens: request.maxOutputTokens ?? null,
    text: { format: { type: "text" } },
    truncation: "disabled",
    metadata: {},
    user: request.user ?? null,
    usage: result
      ? { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output }
      : null,
  };
}

/** A finished turn's status: `length` means the reply was cut at the token limit. */
export function finishedStatus(result: ChatTurnResult): "completed" | "incomplete" {
  return result.stopReason === "length" ? "incomplete" : "completed";
}
