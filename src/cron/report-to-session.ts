import { renderTaskCompletion } from "../agents/subagents/announce-format.js";
import type { TaskCompletionEvent } from "../agents/subagents/types.js";
import type { CronChannelPort, CronConversations } from "./ports.js";
import type { CronJob, CronRunEntry } from "./types.js";

/**
 * An isolated run reports to a session: its result goes in as a `task_completion` event with
 * source `cron`, keyed by the run, so a resend after a crash is recognised and not answered twice.
 * The session's agent answers; when that session lives in a chat, the answer goes there.
 */
export async function reportToSession(
  job: CronJob,
  entry: CronRunEntry,
  text: string,
  deps: { conversations: CronConversations; channels: () => CronChannelPort | undefined },
): Promise<void> {
  if (job.delivery.mode !== "session") return;
  const requested = job.delivery.to === "main" ? undefined : job.delivery.to;
  const { sessionKey, agentId } = deps.conversations.resolveSessionKey(requested, job.agentId);
  const event: TaskCompletionEvent = {
    type: "task_completion",
    source: "cron",
    childSessionKey: entry.sessionKey ?? "",
    announceType: "cron job",
    taskLabel: job.name,
    status: entry.status === "ok" ? "ok" : "error",
    statusLabel: entry.status === "ok" ? "completed successfully" : `failed: ${entry.error ?? "unknown error"}`,
    result: text,
    statsLine: `Stats: scheduled run · duration ${Math.round(entry.durationMs / 1000)}s`,
    replyInstruction:
      "Turn this scheduled job's result into a normal-voice update for the user now. Keep internal details private. Reply NO_REPLY if there is nothing worth telling.",
  };
  const outcome = await deps.conversations.submit({
    message: renderTaskCompletion(event),
    sessionKey,
    agentId,
    idempotencyKey: `cron-report:${entry.runId}`,
    method: "agent",
    internal: { mergeable: true },
    provenance: { kind: "internal_system", sourceSessionKey: entry.sessionKey, sourceTool: "cron" },
    transcriptFields: { internalEvents: [event] },
  });
  if (outcome.kind === "rejected") throw new Error(`session ${sessionKey} refused the report: ${outcome.notice}`);
  if (outcome.kind === "accepted") deps.channels()?.deliverSessionRun(sessionKey, outcome.run);
}
