import type { RunResult } from "../../agents/types.js";

/** The part of a finished run a reply is made from (a RunRecord, or a sub-agent port's run). */
export interface FinishedRun {
  status: string;
  acceptedAt?: number;
  startedAt?: number;
  result?: Partial<Pick<RunResult, "runId" | "payloads" | "error">> & { model?: string; privateFinal?: true };
}

export type RunReply = { text: string; turnId?: string } | { suppress: string };

/** What a chat gets for a message whose turn the gateway's stop or a crash cut: it is never resumed. */
export const INTERRUPTED_NOTICE = "⚠️ The gateway restarted before this message was answered. Please send it again.";

/** Why a run's final text is not sent: its chat's replies go through the `message` tool. */
export const PRIVATE_FINAL = "final text is private: this chat's replies go through the message tool (visibleReplies: message_tool)";

/** Why nothing at all is sent for a room event's run, a failure included. */
export const ROOM_EVENT_QUIET = "room event: the agent speaks only through the message tool";

/**
 * What a finished run says back to the chat. Silence (NO_REPLY, an empty answer, a run the
 * user stopped) is not delivered; a failure is, in words the user can act on, so a chat never just
 * goes quiet (a Telegram chat's `errorPolicy` may hold it back at delivery); and a run the
 * gateway's stop cut gets the interrupted notice, as after a crash.
 */
export function replyForRun(record: FinishedRun): RunReply {
  const turnId = record.result?.runId;
  switch (record.status) {
    case "ok": {
      if (record.result?.privateFinal) return { suppress: PRIVATE_FINAL };
      const text = (record.result?.payloads ?? [])
        .map((p) => p.text)
        .filter((t) => t.trim())
        .join("\n\n");
      return text ? { text, turnId } : { suppress: "no reply (NO_REPLY or empty)" };
    }
    case "aborted":
      return record.result?.error?.kind === "shutdown" ? { text: INTERRUPTED_NOTICE, turnId } : { suppress: "run aborted" };
    case "timeout":
      return { text: "⚠️ The reply took too long and was stopped. Send your message again, or /new to start over.", turnId };
    default: {
      const reason = record.result?.error?.message ?? "the agent failed";
      return { text: `⚠️ ${reason}`, turnId };
    }
  }
}
