/** Who ran a background task: a sub-agent, an ACP child, a cron job run, a detached CLI run. */
export const TASK_RUNTIMES = ["subagent", "acp", "cron", "cli"] as const;
export type TaskRuntime = (typeof TASK_RUNTIMES)[number];

/** A task's stored status: `queued → running → succeeded | failed | timed_out | cancelled | lost`. */
export const TASK_STATUSES = ["queued", "running", "succeeded", "failed", "timed_out", "cancelled", "lost"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TerminalTaskStatus = Exclude<TaskStatus, "queued" | "running">;

/** One background task as the ledger keeps it (times in ms since the epoch). */
export interface TaskRecord {
  taskId: string;
  runtime: TaskRuntime;
  status: TaskStatus;
  /** The run doing the work: a sub-agent's spawn run id, a cron run id. Unique in the ledger. */
  runId: string;
  agentId: string;
  /** The session that started the task (a sub-agent's requester); absent for a cron run. */
  requesterSessionKey?: string;
  /** Where the work runs: the child's session, the cron run's session. */
  childSessionKey?: string;
  /** What started it beyond a session: a cron run's job id. */
  sourceId?: string;
  label?: string;
  /** The task text, at most TASK_TEXT_MAX_CHARS. */
  task: string;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  lastEventAt: number;
  /** When retention deletes the record: set once it ended. */
  cleanupAfter?: number;
  /** Why it failed, at most TASK_ERROR_MAX_CHARS. */
  error?: string;
  /** The start of its result, at most TASK_SUMMARY_MAX_CHARS. */
  terminalSummary?: string;
}

export const TASK_TEXT_MAX_CHARS = 2_000;
export const TASK_LABEL_MAX_CHARS = 200;
export const TASK_ERROR_MAX_CHARS = 500;
export const TASK_SUMMARY_MAX_CHARS = 200;

/** What a producer says when its task starts. */
export interface TaskStart {
  runtime: TaskRuntime;
  runId: string;
  agentId: string;
  task: string;
  status?: "queued" | "running";
  requesterSessionKey?: string;
  childSessionKey?: string;
  sourceId?: string;
  label?: string;
}

/** What a producer says when its task ends. */
export interface TaskEnd {
  status: TerminalTaskStatus;
  error?: string;
  summary?: string;
  /** Where the work ran, when that was known only at its end (a cron run's session). */
  childSessionKey?: string;
}

/**
 * The ledger as producers see it: sub-agents and cron record their runs through this. Both calls
 * return at once and never throw; the write happens in order behind them.
 */
export interface TaskRecorder {
  started(start: TaskStart): void;
  /** Ends the task of `runId`; a task that already ended keeps its first end. */
  ended(runId: string, end: TaskEnd): void;
}

export function isTerminal(status: TaskStatus): status is TerminalTaskStatus {
  return status !== "queued" && status !== "running";
}

/**
 * A change the ledger wrote, told to its observer after the write: a task recorded or ended
 * (`upserted`, the task as stored now), a task retention removed (`deleted`), or many tasks
 * changed at once (`restored`: the tasks left unfinished by the last process marked lost; read
 * the ledger again).
 */
export type TaskLedgerChange = { kind: "upserted"; task: TaskRecord } | { kind: "deleted"; taskId: string } | { kind: "restored" };
