import type { ConversationPort } from "../agents/conversation-port.js";
import type { SubagentService } from "../agents/subagents/index.js";
import { sleep } from "../infra/sleep.js";
import type { TaskLedger, TaskRecord } from "../tasks/index.js";

/** How long a cancel waits for the aborted run to end before answering. */
const SETTLE_TIMEOUT_MS = 10_000;

export interface TaskCancelDeps {
  ledger: TaskLedger;
  subagents: SubagentService;
  conversations: Pick<ConversationPort, "abort" | "runs">;
}

export type TaskCancelOutcome = { cancelled: true } | { cancelled: false; reason: string };

/** A live run's abort, not yet done: `abort` stops it, `done` resolves once it ended. */
interface LiveRun {
  abort(): void;
  done: Promise<unknown>;
}

/**
 * Cancels a running task through the path that owns its run: a sub-agent or ACP child is killed
 * with its tree (as `subagents kill`), a cron run's or an `agent` run's turn is aborted. The ledger records `cancelled`
 * before the abort, so the run's own end (an aborted turn's error) does not replace it; the answer
 * comes once the run has ended (or 10 s passed).
 */
export async function cancelTask(task: TaskRecord, reason: string | undefined, deps: TaskCancelDeps): Promise<TaskCancelOutcome> {
  if (task.status !== "queued" && task.status !== "running") return { cancelled: false, reason: `task ${task.taskId} already ended (${task.status})` };
  const live =
    task.runtime === "cron"
      ? // A cron run's turn is submitted under `cron:<runId>`: that is its conversation run's id.
        turnRun(task, `cron:${task.runId}`, deps, " (a cron run queued for the next heartbeat cannot be cancelled)")
      : task.runtime === "cli"
        ? turnRun(task, task.runId, deps, "")
        : childRun(task, deps);
  if ("reason" in live) return { cancelled: false, reason: live.reason };
  const marked = deps.ledger.end(task.runId, { status: "cancelled", error: reason ? `cancelled: ${reason}` : "cancelled by an operator" });
  live.abort();
  await Promise.race([live.done, sleep(SETTLE_TIMEOUT_MS)]);
  if (await marked) return { cancelled: true };
  const now = await deps.ledger.lookup(task.taskId);
  return { cancelled: false, reason: `task ${task.taskId} ended (${now?.status ?? "removed"}) before the cancel took effect` };
}

function childRun(task: TaskRecord, deps: TaskCancelDeps): LiveRun | { reason: string } {
  const record = deps.subagents.registry.get(task.runId);
  if (!record || record.endedAt) return { reason: `task ${task.taskId} has no live sub-agent run here (it ended, or a restart lost it)` };
  const active = deps.conversations.runs.activeFor(record.childSessionKey);
  return { abort: () => deps.subagents.kill(record), done: Promise.all(active.map((run) => run.done)) };
}

/** A task whose work is one turn: its conversation run, aborted alone (the session's other runs go on). */
function turnRun(task: TaskRecord, conversationRunId: string, deps: TaskCancelDeps, why: string): LiveRun | { reason: string } {
  const run = deps.conversations.runs.get(conversationRunId);
  if (!run || run.endedAt) return { reason: `task ${task.taskId} has no live turn to abort${why}` };
  return { abort: () => deps.conversations.abort(run.sessionKey, run.runId), done: run.done };
}
