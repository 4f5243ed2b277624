import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { drainRequestBody } from "../drain-request-body.js";
import { INTERNAL_ERROR, OpenAiRequestError, sendOpenAiError, sendRequestError } from "./openai-errors.js";
import type { OpenAiRouteDeps } from "./types.js";
import { stability } from "../../../infra/stability/stability-recorder.js";

/**
 * Fastify's own failures (body parsing, limits) in OpenAI's error shape. Installed only inside
 * the `/v1` plugin scope, so the rest of the gateway keeps fastify's defaults. A body over the
 * limit is drained (bounded) before the 413 goes out, so a client still uploading reads the 413
 * instead of a broken pipe.
 */
export function openAiErrorHandler(deps: OpenAiRouteDeps) {
  return async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    // A body that fails its route's schema (openai-body-validator.ts).
    if (err instanceof OpenAiRequestError) return sendRequestError(reply, err);
    switch (err.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        stability.record("payload.large", { surface: "gateway.http.openai", action: "rejected", limitBytes: req.routeOptions.bodyLimit, reason: "body_limit" });
        await drainRequestBody(req.raw);
        return sendOpenAiError(reply, 413, "Payload too large", "invalid_request_error");
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return sendOpenAiError(reply, 415, "Content-Type must be application/json.", "invalid_request_error");
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return sendOpenAiError(reply, 400, "Request body is empty; expected a JSON object.", "invalid_request_error");
      case "FST_ERR_CTP_INVALID_JSON_BODY":
        return sendOpenAiError(reply, 400, "Request body is not valid JSON.", "invalid_request_error");
    }
    const status = err.statusCode ?? 500;
    if (status === 408) return sendOpenAiError(reply, 408, "Request body timeout", "invalid_request_error");
    // Other client errors from fastify: keep the status, never the internals of the message.
    if (status >= 400 && status < 500) return sendOpenAiError(reply, status, "Invalid request.", "invalid_request_error");
    deps.logger?.warn({ err }, "openai http route failed");
    return reply.code(500).send(INTERNAL_ERROR);
  };
}
