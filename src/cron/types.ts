/**
 * The contracts of scheduled jobs (docs/automation.md): what a job is, when it runs, what it does
 * and where its answer goes. The store keeps jobs in this shape; methods, the CLI and the `cron`
 * tool speak it.
 */

export type CronSchedule = { kind: "at"; at: string } | { kind: "every"; everyMs: number; anchorMs?: number } | { kind: "cron"; expr: string; tz?: string; staggerMs?: number };

export type CronPayload =
  | { kind: "systemEvent"; text: string }
  | {
      kind: "agentTurn";
      message: string;
      model?: string;
      thinking?: string;
      timeoutSeconds?: number;
      /** Leave the workspace bootstrap files (AGENTS.md, SOUL.md, …) out of the prompt. */
      lightContext?: boolean;
      /** Models tried in order when `model` (or the agent's model) fails, in place of the agent's fallbacks. */
      fallbacks?: string[];
      /** The run may use only these tools (names or `group:*`), within what policy already allows. */
      tools?: string[];
    };

export type CronDelivery =
  | { mode: "none" }
  | { mode: "announce"; channel?: string; to?: string; accountId?: string; threadId?: string; bestEffort?: boolean }
  | { mode: "webhook"; to: string }
  /** The result goes into a session (`main` or a session key) as a task_completion event; that session's agent answers there. */
  | { mode: "session"; to: string };

/** `main`: the agent's main session; `isolated`: a fresh `cron:<jobId>` session each run; `session:<key>`: that session. */
export type CronSessionTarget = "main" | "isolated" | `session:${string}`;

export type CronWakeMode = "now" | "next-heartbeat";

export type CronRunStatus = "ok" | "error" | "skipped" | "interrupted";
export type CronDeliveryStatus = "delivered" | "not-delivered" | "unknown" | "not-requested";

export interface CronJobState {
  nextRunAtMs?: number;
  runningAtMs?: number;
  /** The run in progress (persisted with `runningAtMs`, so a run cut short by a crash is recorded once). */
  runningRunId?: string;
  /** A run `cron.run` accepted that waits for a free slot (persisted: a restart starts it, once, with this id). */
  queuedRunId?: string;
  lastRunAtMs?: number;
  lastStatus?: CronRunStatus;
  lastError?: string;
  lastDurationMs?: number;
  consecutiveErrors?: number;
  lastDeliveryStatus?: CronDeliveryStatus;
  lastDeliveryError?: string;
  /** When the last failure alert was logged and broadcast (alerts repeat at most hourly). */
  lastAlertAtMs?: number;
  /** The run whose failure alert is owed to a chat (kept until sent: a crash in between sends it once at the next start). */
  pendingAlertRunId?: string;
  /** Why the scheduler turned the job off (too many failures, a schedule that never fires again). */
  disabledReason?: string;
}

export interface CronJob {
  id: string;
  name: string;
  description?: string;
  enabled: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  agentId?: string;
  deleteAfterRun?: boolean;
  schedule: CronSchedule;
  sessionTarget: CronSessionTarget;
  wakeMode: CronWakeMode;
  payload: CronPayload;
  delivery: CronDelivery;
  state: CronJobState;
}

/** One finished (or skipped, or interrupted) run, as `cron.runs` lists it. */
export interface CronRunEntry {
  runId: string;
  jobId: string;
  jobName: string;
  ts: number;
  action: "finished";
  status: CronRunStatus;
  error?: string;
  summary?: string;
  runAtMs: number;
  durationMs: number;
  nextRunAtMs?: number;
  sessionKey?: string;
  model?: string;
  deliveryStatus: CronDeliveryStatus;
  deliveryError?: string;
  /** The reply owed to the delivery target, kept until it is delivered (a crash in between resends it once). */
  pendingDelivery?: string;
}

/** What one run of a job produced. */
export interface CronRunOutcome {
  status: "ok" | "error";
  error?: string;
  /** The visible reply (empty for a silent run). */
  text: string;
  sessionKey?: string;
  model?: string;
  /** True when the error is about the job itself (its target is gone), not a passing fault. */
  permanent?: boolean;
  /** The turn hit its time limit (the run's error says so too). */
  timedOut?: true;
}
