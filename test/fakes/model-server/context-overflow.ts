import type { HttpErrorReply, RecordedRequest } from "./types.js";

/**
 * How each provider family says "the request does not fit the context window", as captured
 * from their APIs: status and body. Tests script these to check that every family's wording
 * leads to compaction and one retry.
 */
export const CONTEXT_OVERFLOW_ERRORS = {
  anthropic: { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210431 tokens > 200000 maximum" } } },
  "anthropic-413": { status: 413, body: { type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } } },
  openai: {
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  },
  google: {
    status: 400,
    body: { error: { code: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", status: "INVALID_ARGUMENT" } },
  },
  vertex: {
    status: 400,
    body: { error: { code: 400, message: "Input token count exceeds the maximum number of input tokens allowed for this model.", status: "INVALID_ARGUMENT" } },
  },
  bedrock: { status: 400, body: { message: "Input is too long for requested model." } },
  ollama: { status: 500, body: { error: { message: "ollama error: context length exceeded", type: "api_error" } } },
  // Ollama's native /api/chat with `truncate: false`.
  "ollama-native": { status: 400, body: { error: "the input length exceeds the context length" } },
  mistral: {
    status: 400,
    body: {
      object: "error",
      message: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
      type: "invalid_request_error",
      code: 3051,
    },
  },
  generic: { status: 400, body: { error: { message: "input exceeds the maximum number of tokens for this model", type: "invalid_request_error" } } },
} satisfies Record<string, HttpErrorReply>;

export type OverflowFamily = keyof typeof CONTEXT_OVERFLOW_ERRORS;

/**
 * A request's size as a provider would count it, roughly: every character of the system prompt,
 * message text, tool calls and tool schemas at four per token, plus the reply's `max_tokens`.
 */
export function requestTokens(request: RecordedRequest): number {
  const body = request.body ?? {};
  let chars = 0;
  const add = (value: unknown) => {
    if (typeof value === "string") chars += value.length;
    else if (value !== undefined && value !== null) chars += JSON.stringify(value).length;
  };
  add(body.system);
  for (const message of body.messages ?? []) {
    const content = message.content;
    if (typeof content === "string") add(content);
    else if (Array.isArray(content)) for (const part of content) add(part.text ?? part.content ?? part.input ?? part);
    if (message.tool_calls) add(message.tool_calls);
  }
  if (body.tools) add(body.tools);
  const reply = Number(body.max_tokens ?? body.max_completion_tokens ?? body.options?.num_predict ?? 0);
  return Math.ceil(chars / 4) + reply;
}
