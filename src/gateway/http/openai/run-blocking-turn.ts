import type { FastifyReply } from "fastify";
import { INTERNAL_ERROR, sendOpenAiError, turnErrorStatus } from "./openai-errors.js";
import { safeErrorMessage } from "./safe-error-message.js";
import type { ChatTurnInput, ChatTurnResult, OpenAiRouteDeps } from "./types.js";

/**
 * A non-streaming `/v1` turn: its result, or undefined once its failure was answered — a failed
 * turn as an OpenAI error naming its kind (secrets blanked), a thrown one as `internal error`
 * (reported to `onThrow`, the client is told nothing about it).
 */
export async function runBlockingTurn(
  deps: Pick<OpenAiRouteDeps, "runTurn">,
  turn: Omit<ChatTurnInput, "onDelta">,
  reply: FastifyReply,
  secrets: (string | undefined)[],
  onThrow: (err: unknown) => void,
): Promise<ChatTurnResult | undefined> {
  let result: ChatTurnResult;
  try {
    result = await deps.runTurn({ ...turn, onDelta: () => {} });
  } catch (err) {
    onThrow(err);
    reply.code(500).send(INTERNAL_ERROR);
    return undefined;
  }
  if (result.error) {
    sendOpenAiError(reply, turnErrorStatus(result.error.kind), safeErrorMessage(result.error.message, secrets), "api_error", { code: result.error.kind });
    return undefined;
  }
  return result;
}
