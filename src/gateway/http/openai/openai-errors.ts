import type { FastifyReply } from "fastify";

/** OpenAI's error envelope; SDKs read `error.message`, `error.type` and `error.code`. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param?: string; code?: string };
}

/**
 * A request problem found while parsing; the route turns it into a 400 (or `status`). The OpenAI
 * `code` is `openAiCode`, not `code`: fastify fills an empty `code` of a validation error with its
 * own (FST_ERR_VALIDATION), which must not reach the client.
 */
export class OpenAiRequestError extends Error {
  constructor(
    message: string,
    readonly param?: string,
    readonly openAiCode?: string,
    readonly status = 400,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

export function openAiError(message: string, type: string, extra: { param?: string; code?: string } = {}): OpenAiErrorBody {
  return { error: { message, type, ...(extra.param ? { param: extra.param } : {}), ...(extra.code ? { code: extra.code } : {}) } };
}

export function sendOpenAiError(reply: FastifyReply, status: number, message: string, type: string, extra: { param?: string; code?: string } = {}): FastifyReply {
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .send(openAiError(message, type, extra));
}

export function sendRequestError(reply: FastifyReply, err: OpenAiRequestError): FastifyReply {
  return sendOpenAiError(reply, err.status, err.message, err.type, { param: err.param, code: err.openAiCode });
}

/** OpenClaw's exact bodies (see docs/http-api.md, "Errors"); clients match on them. */
export const UNAUTHORIZED = openAiError("Unauthorized", "unauthorized");
export const RATE_LIMITED = openAiError("Too many failed authentication attempts. Please try again later.", "rate_limited");
export const INTERNAL_ERROR = openAiError("internal error", "api_error");
export const NOT_FOUND = openAiError("Not Found", "invalid_request_error", { code: "not_found" });

/**
 * HTTP status and OpenAI `code` for a turn that ended in error. Failures of the upstream model
 * provider are a bad gateway (502); a turn the gateway's shutdown cut, or never started, is 503
 * (the request was fine: send it again once the gateway is back); a message the session's full
 * queue refused is 429; everything else (config, tools, loops, unknown) is our own 500. The code
 * is the error's kind.
 */
export function turnErrorResponse(kind: string): { status: 429 | 500 | 502 | 503; code: string } {
  if (kind === "shutdown") return { status: 503, code: GATEWAY_SHUTTING_DOWN };
  if (kind === QUEUE_FULL) return { status: 429, code: QUEUE_FULL };
  // As OpenClaw answers a run that did not make the tool call the request required.
  if (kind === TOOL_CHOICE_UNMET) return { status: 502, code: TOOL_CHOICE_UNMET };
  return { status: UPSTREAM_KINDS.has(kind) ? 502 : 500, code: kind };
}

export const GATEWAY_SHUTTING_DOWN = "gateway_shutting_down";
/** A run that ended without the client tool call `tool_choice` required. */
export const TOOL_CHOICE_UNMET = "tool_choice_unmet";
/** A message the session's full queue refused (`messages.queue.drop: new`). */
export const QUEUE_FULL = "queue_full";

const UPSTREAM_KINDS = new Set(["auth", "rate_limit", "server", "network", "malformed", "timeout", "context_length", "bad_request"]);
