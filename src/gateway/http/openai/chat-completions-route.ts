import type { FastifyReply, FastifyRequest } from "fastify";
import type { ChatCompletionBody } from "./chat-request-schema.js";
import { resolveAgentId } from "./agent-target.js";
import { clientPresence } from "./client-abort.js";
import { chatCompletion, newCompletionIdentity } from "./completion-shapes.js";
import { OpenAiRequestError, sendRequestError } from "./openai-errors.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { readRoutingHeaders } from "./routing-headers.js";
import { runBlockingTurn, thrownFailure } from "./run-blocking-turn.js";
import { safeErrorMessage } from "./safe-error-message.js";
import { deriveSessionKey } from "./session-key.js";
import { loadRequestMedia } from "./request-media.js";
import { ChatCompletionSseWriter } from "./sse-writer.js";
import type { ChatTurnInput, OpenAiRouteDeps } from "./types.js";

/** `POST /v1/chat/completions`: validate, pick agent and session, run one turn, answer as JSON or SSE. */
export function chatCompletionsHandler(deps: OpenAiRouteDeps) {
  return async (req: FastifyRequest<{ Body: ChatCompletionBody }>, reply: FastifyReply): Promise<unknown> => {
    let turn: Omit<ChatTurnInput, "client" | "onDelta">;
    let parsed: ReturnType<typeof parseChatRequest>;
    try {
      parsed = parseChatRequest(req.body);
      const headers = readRoutingHeaders(req.headers);
      const modelProblem = headers.model ? deps.modelProblem(headers.model) : undefined;
      if (modelProblem) throw new OpenAiRequestError(`Unknown x-openclaw-model: ${modelProblem}`, "x-openclaw-model", "model_not_found");
      const agentId = resolveAgentId(parsed.model, headers.agentId, deps.agents());
      const { sessionKey, stateless } = deriveSessionKey(headers.sessionKey, parsed.user, agentId);
      const { images, extraSystemPrompt } =
        parsed.images.length > 0 || parsed.files.length > 0
          ? await loadRequestMedia(parsed, deps.mediaLimits("chatCompletions"))
          : { images: [], extraSystemPrompt: parsed.extraSystemPrompt };
      turn = {
        agentId,
        sessionKey,
        message: parsed.message,
        ...(images.length > 0 ? { images } : {}),
        ...(extraSystemPrompt !== undefined ? { extraSystemPrompt } : {}),
        ...(stateless && parsed.history.length > 0 ? { history: parsed.history } : {}),
        ...(stateless ? { stateless: true } : {}),
        ...(headers.model ? { model: headers.model } : {}),
        ...(parsed.modelParams ? { modelParams: parsed.modelParams } : {}),
        ...(parsed.clientTools.tools ? { clientTools: parsed.clientTools } : {}),
      };
    } catch (err) {
      if (err instanceof OpenAiRequestError) return sendRequestError(reply, err);
      throw err;
    }

    const identity = newCompletionIdentity(parsed.model);
    const client = clientPresence(reply.raw);
    const { token, password } = deps.auth();
    const secrets = [token, password];
    const failed = (err: unknown) => {
      // A thrown error is a bug or an internal failure: log it, tell the client nothing about it.
      if (!client.left) deps.logger?.warn({ err, agentId: turn.agentId }, "chat completion turn threw");
    };

    if (!parsed.stream) {
      const result = await runBlockingTurn(deps, { ...turn, client }, reply, secrets, failed);
      return result ? reply.send(chatCompletion(identity, result)) : reply;
    }

    reply.hijack();
    const sse = new ChatCompletionSseWriter(reply.raw, identity, parsed.includeUsage);
    sse.open();
    try {
      const result = await deps.runTurn({ ...turn, client, onDelta: (text) => sse.delta(text) });
      if (result.error) sse.fail(safeErrorMessage(result.error.message, secrets));
      else sse.finish(result);
    } catch (err) {
      failed(err);
      sse.fail(thrownFailure(deps, err).message);
    }
    return undefined;
  };
}
