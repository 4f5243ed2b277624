import { randomUUID } from "node:crypto";
import type { ChatSenders } from "../agents/questions/chat-answerers.js";
import type { QuestionBroker, QuestionOutcome } from "../agents/questions/question-broker.js";
import { AskUserRefusal, type AskUserHost, type AskUserRequest } from "../agents/types.js";
import type { QuestionChats } from "./question-chat.js";

/**
 * ask_user through the gateway's questions: one pending question per session, announced to the
 * operator clients (`question.requested`) and posted in the session's chat; the run's end cancels it.
 * The question is for the chat senders whose message started the run (`startedBy`), when any.
 */
export function askUserHost(broker: QuestionBroker, chats: QuestionChats, startedBy: (runId: string) => ChatSenders | undefined): AskUserHost {
  return {
    async ask(request: AskUserRequest, signal: AbortSignal): Promise<QuestionOutcome> {
      if (signal.aborted) return { status: "cancelled" };
      const waiting = broker.pendingIn(request.sessionKey);
      if (waiting) throw new AskUserRefusal(`A question (${waiting.id}) is already waiting for this session's answer.`);
      const { timeoutMs, ...input } = request;
      const askers = request.runId ? startedBy(request.runId) : undefined;
      const record = broker.request({ ...input, id: `ask_${randomUUID().replaceAll("-", "")}`, ...(askers ? { askers } : {}) }, timeoutMs);
      const cancel = () => broker.cancel(record.id, "run aborted");
      signal.addEventListener("abort", cancel, { once: true });
      try {
        void chats.post(record, askers);
        return await broker.wait(record.id)!;
      } finally {
        signal.removeEventListener("abort", cancel);
      }
    },
  };
}
