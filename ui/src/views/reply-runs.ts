import type { ChatMessage } from "./chat-message.js";

/**
 * Which transcript rows end a run's reply, and the run: the gateway writes on a turn's first
 * assistant message the idempotency keys of the messages it answers (`answers`) and the turn's
 * run (`runId`; a transcript written before it had that field: the last of `answers`, which is
 * wrong only for a reply to a message steered into a running turn). Every assistant row up to
 * the next user message or the next `answers` belongs to that run; the last of them carries the
 * reply's rating. Rows before any `answers` (an older page's tail, injected notes) are tied to no run.
 */
export function replyRuns(messages: readonly ChatMessage[]): Map<ChatMessage, string> {
  const ends = new Map<ChatMessage, string>();
  let runId: string | undefined;
  let last: ChatMessage | undefined;
  const close = () => {
    if (runId && last) ends.set(last, runId);
    last = undefined;
  };
  for (const message of messages) {
    if (message.role === "user") {
      close();
      runId = undefined;
      continue;
    }
    if (message.role !== "assistant") continue;
    const answers = message.answers;
    if (Array.isArray(answers) && answers.length > 0) {
      close();
      const named = typeof message.runId === "string" ? message.runId : answers[answers.length - 1];
      runId = typeof named === "string" ? named : undefined;
    }
    if (runId && message.content.some((block) => block.type === "text" && block.text)) last = message;
  }
  close();
  return ends;
}
