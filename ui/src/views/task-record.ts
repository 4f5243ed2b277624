import { html, type TemplateResult } from "lit";

/** A background task as tasks.list, tasks.get and the `task` event carry it (docs/protocol.md, "Tasks"). */
export interface TaskSummary {
  taskId: string;
  runtime: string;
  /** The RPC status: queued, running, completed, failed, cancelled, timed_out. */
  status: string;
  /** The stored status (tells `lost` from `failed`). */
  ledgerStatus?: string;
  title: string;
  agentId: string;
  /** The session that started it. */
  sessionKey?: string;
  /** The session it runs in. */
  childSessionKey?: string;
  runId: string;
  sourceId?: string;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  endedAt?: number;
  terminalSummary?: string;
  error?: string;
  /** The task text: tasks.get only. */
  prompt?: string;
}

/** The `task` event's payload. */
export type TaskEvent = { action: "upserted"; task: TaskSummary } | { action: "deleted"; taskId: string } | { action: "restored" };

export const TASK_RUNTIMES = ["subagent", "acp", "cron", "cli"] as const;

/** Which tasks the list shows: unfinished ones, ended ones, or all. */
export type StatusFilter = "active" | "finished" | "all";

/** tasks.list's `status` for a filter; undefined: every status. */
export function statusesFor(filter: StatusFilter): string[] | undefined {
  if (filter === "active") return ["queued", "running"];
  if (filter === "finished") return ["completed", "failed", "cancelled", "timed_out"];
  return undefined;
}

export function isActive(task: TaskSummary): boolean {
  return task.status === "queued" || task.status === "running";
}

/** Whether a task belongs in the list the filters select. */
export function taskMatches(task: TaskSummary, filter: StatusFilter, runtime: string): boolean {
  if (runtime && task.runtime !== runtime) return false;
  if (filter === "active") return isActive(task);
  if (filter === "finished") return !isActive(task);
  return true;
}

/** Whether `incoming` says less than `shown`: it is older, or it is running where the row already ended (an end is final). */
function staler(incoming: TaskSummary, shown: TaskSummary): boolean {
  return incoming.updatedAt < shown.updatedAt || (isActive(incoming) && !isActive(shown));
}

/**
 * The list with `task` in its place (newest created first), or without it when it no longer
 * matches; a copy older than the row shown changes nothing.
 */
export function upsertTask(rows: readonly TaskSummary[], task: TaskSummary, matches: boolean): TaskSummary[] {
  const shown = rows.find((row) => row.taskId === task.taskId);
  if (shown && staler(task, shown)) return [...rows];
  const others = rows.filter((row) => row.taskId !== task.taskId);
  if (!matches) return others;
  const at = others.findIndex((row) => row.createdAt < task.createdAt);
  return at < 0 ? [...others, task] : [...others.slice(0, at), task, ...others.slice(at)];
}

/** How long it took, or (running) how long it has run so far. */
export function taskDuration(task: TaskSummary, now: number): string {
  const from = task.startedAt ?? task.createdAt;
  const to = task.endedAt ?? (isActive(task) ? now : undefined);
  if (to === undefined) return "—";
  const seconds = Math.max(0, Math.round((to - from) / 1000));
  const text =
    seconds < 60 ? `${seconds}s` : seconds < 3600 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
  return task.endedAt === undefined ? `${text} so far` : text;
}

export function taskStatusBadge(task: TaskSummary): TemplateResult {
  const shown = task.ledgerStatus === "lost" ? "lost" : task.status;
  const tone = task.status === "completed" ? "ok" : task.status === "failed" || task.status === "timed_out" ? "bad" : task.status === "cancelled" ? "down" : "";
  return html`<span class="badge ${tone}" data-status=${shown}>${shown}</span>`;
}
