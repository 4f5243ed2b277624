import type { TranscriptMessage } from "../agents/types.js";
import type { IdempotencyRecord } from "../sessions/idempotency/idempotency-record.js";
import type { ReplyVia } from "../agents/conversation-port.js";
import { INTERRUPTED_NOTICE, PRIVATE_FINAL, ROOM_EVENT_QUIET } from "./dispatch/run-reply.js";

export type RecoveredReply = { text: string; turnId?: string } | { suppress: string } | { drop: string } | null;

/**
 * After a crash: what is owed to a chat whose message was accepted but whose reply was never
 * recorded for delivery. The idempotency ledger says how the run ended; the transcript holds
 * the answer (the assistant message that `answers` the run, then its last text), unless it went
 * out in blocks while the run went on (`streamed`). A run that answers through the `message` tool
 * (`replyVia`) has no final text to send: a room event's run sends nothing at all.
 */
export function recoverReply(record: IdempotencyRecord | undefined, transcript: () => readonly TranscriptMessage[], streamed = false, replyVia?: ReplyVia): RecoveredReply {
  if (!record) return { drop: "message was never accepted (the platform redelivers it)" };
  if (replyVia === "message_tool_only") return { suppress: ROOM_EVENT_QUIET };
  if (replyVia === "message_tool" && record.status === "ok") return { suppress: PRIVATE_FINAL };
  switch (record.status) {
    case "in_flight":
      // Still running in this process: its own watcher delivers.
      return null;
    case "interrupted":
      return { text: INTERRUPTED_NOTICE };
    case "aborted":
      return { suppress: "run aborted" };
    case "error":
      return { text: `⚠️ ${record.summary ?? "the agent failed"}` };
    case "ok": {
      if (streamed) return { suppress: "sent as block replies before the restart" };
      const answer = answerFromTranscript(transcript(), record.runId);
      if (answer !== undefined) return answer.text ? answer : { suppress: "no reply (NO_REPLY or empty)" };
      return record.summary ? { text: record.summary } : { suppress: "no reply recorded" };
    }
  }
}

/**
 * The answer to `runId`, and the turn it belongs to (the first message that answer answers):
 * several messages merged into one turn share it, so each chat is sent it once.
 */
function answerFromTranscript(messages: readonly TranscriptMessage[], runId: string): { text: string; turnId: string } | undefined {
  const answersOf = (m: TranscriptMessage): unknown => (m as unknown as { answers?: unknown }).answers;
  const start = messages.findIndex((m) => {
    const answers = answersOf(m);
    return m.role === "assistant" && Array.isArray(answers) && answers.includes(runId);
  });
  if (start < 0) return undefined;
  let text = "";
  for (let i = start; i < messages.length; i += 1) {
    const m = messages[i]!;
    if (i > start && (m.role === "user" || (m.role === "assistant" && answersOf(m)))) break;
    if (m.role !== "assistant") continue;
    const blocks = (m.content as { type: string; text?: string }[]).filter((b) => b.type === "text" && b.text);
    if (blocks.length > 0) text = blocks.map((b) => b.text).join("");
  }
  const turnId = String((answersOf(messages[start]!) as unknown[])[0]);
  return { text: text.trim() === "NO_REPLY" ? "" : text, turnId };
}
