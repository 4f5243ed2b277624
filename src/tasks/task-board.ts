import { formatDuration } from "../infra/duration.js";
import type { TaskLedger } from "./task-ledger.js";
import { taskLine } from "./task-text.js";
import { isTerminal, type TaskRecord } from "./types.js";

/** The chat task board shows at most this many of the session's tasks. */
export const TASK_BOARD_MAX = 5;
const DETAIL_MAX_CHARS = 100;
/** Agent-wide counts read at most this many tasks. */
const COUNT_SCAN_LIMIT = 500;

/**
 * `/tasks`: the background tasks this session started or runs in, newest first (up to five), each
 * with its kind, status, age or duration, and error or result. Without any, the counts of the
 * session's agent, so nothing of another session is shown.
 */
export async function renderTaskBoard(ledger: Pick<TaskLedger, "list">, sessionKey: string, agentId: string, now: number): Promise<string> {
  const tasks = await ledger.list({ sessionKey, limit: TASK_BOARD_MAX });
  if (tasks.length === 0) {
    const all = await ledger.list({ agentId, limit: COUNT_SCAN_LIMIT });
    const active = all.filter((t) => !isTerminal(t.status)).length;
    return `No background tasks for this session. Agent ${agentId}: ${active} active, ${all.length - active} finished${all.length === COUNT_SCAN_LIMIT ? " (of the newest 500)" : ""}. The full ledger: openclaw tasks list.`;
  }
  return ["Background tasks (newest first):", ...tasks.map((t, i) => `${i + 1}. ${boardLine(t, now)}`)].join("\n");
}

function boardLine(task: TaskRecord, now: number): string {
  const title = taskLine(task.label ?? task.task, DETAIL_MAX_CHARS);
  const timing = isTerminal(task.status)
    ? `took ${duration((task.endedAt ?? now) - (task.startedAt ?? task.createdAt))}`
    : `for ${duration(now - (task.startedAt ?? task.createdAt))}`;
  const detail = task.error ?? task.terminalSummary;
  return `[${task.status}] ${task.runtime} · ${title} · ${timing}${detail ? ` · ${taskLine(detail, DETAIL_MAX_CHARS)}` : ""}`;
}

/** Whole seconds, shown as durations are elsewhere (`1m30s`). */
function duration(ms: number): string {
  return formatDuration(Math.max(0, Math.round(ms / 1000)) * 1000);
}
