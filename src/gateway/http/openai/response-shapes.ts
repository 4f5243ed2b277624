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

/** The `function_call` output items of the client tool calls a run ended with. */
export function functionCallItems(identity: ResponseIdentity, result: Pick<ChatTurnResult, "toolCalls">, status: "in_progress" | "completed" = "completed") {
  return (result.toolCalls ?? []).map((call, i) => ({
    type: "function_call",
    id: `fc_${identity.id.slice("resp_".length)}_${i}`,
    call_id: call.id,
    name: call.name,
    arguments: status === "completed" ? JSON.stringify(call.arguments) : "",
    status,
  }));
}

/** A finished response's output: the message (unless the run only called client tools), then the calls. */
function outputItems(identity: ResponseIdentity, result: ChatTurnResult) {
  const calls = functionCallItems(identity, result);
  const text = result.text || (calls.length > 0 ? "" : EMPTY_REPLY);
  return [...(text ? [messageItem(identity, text, "completed")] : []), ...calls];
}

/** The `response` object (OpenAI's shape), for the JSON answer and the lifecycle events. */
export function responseObject(identity: ResponseIdentity, status: ResponseStatus, result?: ChatTurnResult, error?: { code: string; message: string }) {
  const { request } = identity;
  const input = Math.max(0, Math.round(result?.usage.input ?? 0));
  const output = Math.max(0, Math.round(result?.usage.output ?? 0));
  return {
    id: identity.id,
    object: "response",
    created_at: identity.createdAt,
    status,
    model: request.model ?? "openclaw",
    output: result && (status === "completed" || status === "incomplete") ? outputItems(identity, result) : [],
    error: error ?? null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: request.instructions ?? null,
    previous_response_id: request.previousResponseId ?? null,
    parallel_tool_calls: false,
    tool_choice: toolChoiceEcho(request),
    tools: (request.clientTools.tools ?? []).map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: null,
    })),
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

function toolChoiceEcho(request: ParsedResponsesRequest) {
  const choice = request.clientTools.choice;
  return choice === undefined ? "auto" : choice === "required" ? "required" : { type: "function", name: choice.name };
}

/** A finished turn's status: `length` means the reply was cut at the token limit. */
export function finishedStatus(result: ChatTurnResult): "completed" | "incomplete" {
  return result.stopReason === "length" ? "incomplete" : "completed";
}
