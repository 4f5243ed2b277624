import { randomUUID } from "node:crypto";
import type { QuestionBroker, QuestionOutcome } from "../agents/questions/question-broker.js";
import { AskUserRefusal, type AskUserHost, type AskUserRequest } from "../agents/types.js";
import type { QuestionChats } from "./question-chat.js";

/**
 * ask_user through the gateway's questions: one pending question per session, announced to the
 * operator clients (`question.requested`) and posted in the session's chat; the run's end cancels it.
 */
export function askUserHost(broker: QuestionBroker, chats: QuestionChats): AskUserHost {
  return {
    async ask(request: AskUserRequest, signal: AbortSignal): Promise<QuestionOutcome> {
      if (signal.aborted) return { status: "cancelled" };
      const waiting = broker.pendingIn(request.sessionKey);
      if (waiting) throw new AskUserRefusal(`A question (${waiting.id}) is already waiting for this session's answer.`);
      const { timeoutMs, ...input } = request;
      const record = broker.request({ ...input, id: `ask_${randomUUID().replaceAll("-", "")}` }, timeoutMs);
      const cancel = () => broker.cancel(record.id, "run aborted");
      signal.addEventListener("abort", cancel, { once: true });
      try {
        void chats.post(record);
        return await broker.wait(record.id)!;
      } finally {
        signal.removeEventListener("abort", cancel);
      }
    },
  };
}
