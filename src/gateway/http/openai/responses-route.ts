import type { FastifyReply, FastifyRequest } from "fastify";
import { resolveAgentId } from "./agent-target.js";
import { clientPresence } from "./client-abort.js";
import { OpenAiRequestError, sendRequestError } from "./openai-errors.js";
import { parseResponsesRequest, type ParsedResponsesRequest } from "./parse-responses-request.js";
import { finishedStatus, newResponseIdentity, responseObject } from "./response-shapes.js";
import type { ResponseSessions } from "./response-sessions.js";
import { ResponsesSseWriter } from "./responses-sse-writer.js";
import { readRoutingHeaders } from "./routing-headers.js";
import { runBlockingTurn, thrownFailure } from "./run-blocking-turn.js";
import { safeErrorMessage } from "./safe-error-message.js";
import { deriveSessionKey } from "./session-key.js";
import { loadRequestMedia } from "./request-media.js";
import type { ChatTurnInput, ChatTurnResult, OpenAiRouteDeps } from "./types.js";

/**
 * `POST /v1/responses` (OpenResponses): the same agent turn as chat completions, answered as a
 * `response` object or its event stream. `previous_response_id` continues the session that
 * response belonged to (docs/http-api.md).
 */
export function responsesHandler(deps: OpenAiRouteDeps, responseSessions: () => ResponseSessions) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const sessions = responseSessions();
    let parsed: ParsedResponsesRequest;
    let turn: Omit<ChatTurnInput, "client" | "onDelta">;
    try {
      parsed = parseResponsesRequest(req.body);
      turn = turnFor(parsed, readRoutingHeaders(req.headers), deps, sessions);
      if (parsed.images.length > 0 || parsed.files.length > 0) {
        const media = await loadRequestMedia(parsed, deps.mediaLimits("responses"));
        if (media.images.length > 0) turn.images = media.images;
        if (media.extraSystemPrompt !== undefined) turn.extraSystemPrompt = media.extraSystemPrompt;
      }
    } catch (err) {
      if (err instanceof OpenAiRequestError) return sendRequestError(reply, err);
      throw err;
    }

    const identity = newResponseIdentity(parsed);
    const client = clientPresence(reply.raw);
    const { token, password } = deps.auth();
    const secrets = [token, password];
    const failed = (err: unknown) => {
      if (!client.left) deps.logger?.warn({ err, agentId: turn.agentId }, "responses turn threw");
    };
    const remember = async (result: ChatTurnResult) => {
      if (!result.error) await sessions.remember(identity.id, turn.sessionKey, turn.agentId);
    };

    if (!parsed.stream) {
      const result = await runBlockingTurn(deps, { ...turn, client }, reply, secrets, failed);
      if (!result) return reply;
      await remember(result);
      return reply.send(responseObject(identity, finishedStatus(result), result));
    }

    reply.hijack();
    const sse = new ResponsesSseWriter(reply.raw, identity);
    sse.open();
    try {
      const result = await deps.runTurn({ ...turn, client, onDelta: (text) => sse.delta(text) });
      if (result.error) sse.fail(result.error.kind, safeErrorMessage(result.error.message, secrets));
      else {
        await remember(result);
        sse.finish(result);
      }
    } catch (err) {
      failed(err);
      const failure = thrownFailure(deps, err);
      sse.fail(failure.code ?? "internal_error", failure.message);
    }
    return undefined;
  };
}

/** Agent and session: an explicit session header, else the previous response's session, else per user, else fresh. */
function turnFor(
  parsed: ParsedResponsesRequest,
  headers: ReturnType<typeof readRoutingHeaders>,
  deps: OpenAiRouteDeps,
  sessions: ResponseSessions,
): Omit<ChatTurnInput, "client" | "onDelta"> {
  const agentId = resolveAgentId(parsed.model, headers.agentId, deps.agents());
  // The request's sampling fields, as model params for its turn.
  const sampling = { temperature: parsed.temperature, top_p: parsed.topP, max_tokens: parsed.maxOutputTokens };
  const modelParams = Object.fromEntries(Object.entries(sampling).filter(([, value]) => value !== undefined));
  const { extraSystemPrompt } = parsed;
  let sessionKey: string;
  let stateless = false;
  const previous = parsed.previousResponseId ? sessions.lookup(parsed.previousResponseId) : undefined;
  if (parsed.previousResponseId && !headers.sessionKey) {
    if (!previous) {
      throw new OpenAiRequestError(
        `Previous response with id '${parsed.previousResponseId}' not found (this gateway remembers its latest 10,000 responses).`,
        "previous_response_id",
        "previous_response_not_found",
        404,
      );
    }
    if (previous.agentId !== agentId) {
      throw new OpenAiRequestError(`Previous response '${parsed.previousResponseId}' belongs to agent '${previous.agentId}', not '${agentId}'.`, "previous_response_id");
    }
    sessionKey = previous.sessionKey;
  } else {
    ({ sessionKey, stateless } = deriveSessionKey(headers.sessionKey, parsed.user, agentId, "openresponses"));
  }
  return {
    agentId,
    sessionKey,
    message: parsed.message,
    ...(extraSystemPrompt !== undefined ? { extraSystemPrompt } : {}),
    ...(stateless && parsed.history.length > 0 ? { history: parsed.history } : {}),
    ...(headers.model ? { model: headers.model } : {}),
    ...(Object.keys(modelParams).length > 0 ? { modelParams } : {}),
    ...(parsed.clientTools.tools ? { clientTools: parsed.clientTools } : {}),
  };
}
