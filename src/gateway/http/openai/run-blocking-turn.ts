import type { FastifyReply } from "fastify";
import { INTERNAL_ERROR, sendOpenAiError, turnErrorResponse } from "./openai-errors.js";
import { safeErrorMessage } from "./safe-error-message.js";
import type { ChatTurnInput, ChatTurnResult, OpenAiRouteDeps } from "./types.js";

/** A turn that threw, as the client is told: a state write that failed names its cause, anything else is `internal error`. */
export function thrownFailure(deps: Pick<OpenAiRouteDeps, "explainFailure">, err: unknown): { status: 500 | 503; message: string; code?: string } {
  const cause = deps.explainFailure?.(err);
  return cause ? { status: 503, message: cause, code: STATE_WRITE_FAILED } : { status: 500, message: "internal error" };
}

export const STATE_WRITE_FAILED = "state_write_failed";

/**
 * A non-streaming `/v1` turn: its result, or undefined once its failure was answered — a failed
 * turn as an OpenAI error naming its kind (secrets blanked), a thrown one as `thrownFailure`
 * says (reported to `onThrow`).
 */
export async function runBlockingTurn(
  deps: Pick<OpenAiRouteDeps, "runTurn" | "explainFailure">,
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
    const failure = thrownFailure(deps, err);
    if (failure.code) sendOpenAiError(reply, failure.status, failure.message, "api_error", { code: failure.code });
    else reply.code(500).send(INTERNAL_ERROR);
    return undefined;
  }
  if (result.error) {
    const { status, code } = turnErrorResponse(result.error.kind);
    sendOpenAiError(reply, status, safeErrorMessage(result.error.message, secrets), "api_error", { code });
    return undefined;
  }
  return result;
}
