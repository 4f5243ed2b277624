import { taskLine, type TaskRecord, type TaskStatus } from "../tasks/index.js";

/** OpenClaw's task-ledger RPC statuses: `succeeded` reads `completed`, `lost` reads `failed`. */
export const LEDGER_RPC_STATUSES = ["queued", "running", "completed", "failed", "cancelled", "timed_out"] as const;
export type LedgerRpcStatus = (typeof LEDGER_RPC_STATUSES)[number];

const RPC_STATUS: Record<TaskStatus, LedgerRpcStatus> = {
  queued: "queued",
  running: "running",
  succeeded: "completed",
  failed: "failed",
  timed_out: "timed_out",
  cancelled: "cancelled",
  lost: "failed",
};

/** The stored statuses a `tasks.list` status filter selects (the stored names select themselves). */
export function storedStatusesFor(status: string): TaskStatus[] {
  if (status === "completed") return ["succeeded"];
  if (status === "failed") return ["failed", "lost"];
  return [status as TaskStatus];
}

const TITLE_MAX_CHARS = 120;

/** A task on the wire (`tasks.list`, `tasks.get`, `tasks.cancel`, the `task` event). */
export interface TaskSummary {
  /** The same as `taskId` (OpenClaw's clients read either). */
  id: string;
  taskId: string;
  /** The same as `runtime`. */
  kind: TaskRecord["runtime"];
  runtime: TaskRecord["runtime"];
  status: LedgerRpcStatus;
  ledgerStatus: TaskStatus;
  title: string;
  agentId: string;
  sessionKey?: string;
  childSessionKey?: string;
  runId: string;
  sourceId?: string;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  endedAt?: number;
  terminalSummary?: string;
  error?: string;
  prompt?: string;
}

/**
 * A task as `tasks.list`, `tasks.get` and `tasks.cancel` answer it: OpenClaw's TaskSummary fields
 * this gateway has, plus `ledgerStatus` (the stored status, which tells `lost` from `failed`).
 * `prompt` (the task text) only with `includePrompt` (tasks.get).
 */
export function taskSummary(task: TaskRecord, opts: { includePrompt?: boolean } = {}): TaskSummary {
  return {
    id: task.taskId,
    taskId: task.taskId,
    kind: task.runtime,
    runtime: task.runtime,
    status: RPC_STATUS[task.status],
    ledgerStatus: task.status,
    title: taskLine(task.label ?? task.task, TITLE_MAX_CHARS),
    agentId: task.agentId,
    ...(task.requesterSessionKey ? { sessionKey: task.requesterSessionKey } : {}),
    ...(task.childSessionKey ? { childSessionKey: task.childSessionKey } : {}),
    runId: task.runId,
    ...(task.sourceId ? { sourceId: task.sourceId } : {}),
    createdAt: task.createdAt,
    updatedAt: task.lastEventAt,
    ...(task.startedAt !== undefined ? { startedAt: task.startedAt } : {}),
    ...(task.endedAt !== undefined ? { endedAt: task.endedAt } : {}),
    ...(task.terminalSummary ? { terminalSummary: task.terminalSummary } : {}),
    ...(task.error ? { error: task.error } : {}),
    ...(opts.includePrompt ? { prompt: task.task } : {}),
  };
}
