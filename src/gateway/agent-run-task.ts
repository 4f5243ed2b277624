import { runReplyText, type ConversationRun } from "../agents/conversation-port.js";
import type { TaskEnd, TaskRecorder } from "../tasks/index.js";

/**
 * A run the `agent` method accepted is a `cli` task (OpenClaw's "gateway-dispatched CLI agent
 * commands"), keyed by its run id, ended with the run: an aborted run is `cancelled`.
 */
export function trackAgentRunTask(tasks: TaskRecorder, run: ConversationRun, message: string, label: string | undefined): void {
  tasks.started({ runtime: "cli", runId: run.runId, agentId: run.agentId, task: message, childSessionKey: run.sessionKey, ...(label ? { label } : {}) });
  void run.done.then((ended) => tasks.ended(ended.runId, agentRunTaskEnd(ended)));
}

function agentRunTaskEnd(run: ConversationRun): TaskEnd {
  const error = run.result?.error?.message;
  switch (run.status) {
    case "ok": {
      const reply = runReplyText(run);
      return { status: "succeeded", ...(reply ? { summary: reply } : {}) };
    }
    case "timeout":
      return { status: "timed_out", error: error ?? "the run hit its time limit" };
    case "aborted":
      return { status: "cancelled", error: error ?? "the run was aborted" };
    default:
      return { status: "failed", error: error ?? "the run failed" };
  }
}
