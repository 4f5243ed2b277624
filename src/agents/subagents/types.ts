/**
 * The sub-agent registry's records. Why a run ended (`endedReason`) is kept apart from what came of
 * it (`outcome`): a run can be killed after useful work, or end "complete" with an error result.
 */

import type { SubagentThread } from "./thread-port.js";

export type SpawnMode = "run" | "session";
export type SubagentOutcome = "ok" | "error" | "timeout" | "killed" | "reset" | "deleted";
export type SubagentEndedReason = "subagent-complete" | "subagent-error" | "subagent-killed" | "session-reset" | "session-delete";

/**
 * An announcement's life: `pending` (waiting to be handed to the requester, maybe after a
 * transient failure), `accepted` (durably in the requester's session, its turn not finished),
 * `answered` (that turn ended). `suppressed` (nothing to report, or the requester's tree was
 * killed), `failed` (a permanent error) and `expired` (past its deadline) are the other ends.
 */
export type AnnounceState = "pending" | "accepted" | "answered" | "suppressed" | "failed" | "expired";

export interface SubagentAnnouncement {
  /** The completion round it reports (session-mode children report each round). */
  round: number;
  /** Idempotency key of the requester's message: the same key can never be accepted twice. */
  key: string;
  state: AnnounceState;
  /** The requester, or its own requester when the requester's session is gone. */
  targetSessionKey: string;
  attempts: number;
  createdAt: number;
  /** Give up (state `expired`) after this: 5 min without, 30 min with `expectsCompletionMessage`. */
  dueBy: number;
  nextAttemptAt?: number;
  lastError?: string;
  settledAt?: number;
  /** A restart cut the requester's turn short; it was asked to answer again under `${key}:resume`. */
  resumed?: boolean;
}

export interface SubagentRunRecord {
  runId: string;
  childSessionKey: string;
  /** The child's transcript generation at spawn: a different one later means its session was reset. */
  childSessionId?: string;
  requesterSessionKey: string;
  agentId: string;
  task: string;
  label?: string;
  cleanup: "delete" | "keep";
  spawnMode: SpawnMode;
  /** The child runs on an external ACP agent (its session key is `agent:<acpAgent>:acp:<uuid>`), not the embedded loop. */
  runtime?: "acp";
  acp?: { agent: string; cwd: string; streamToParent: boolean };
  /** The chat thread this child is bound to (`thread: true`): its runs answer there, messages there reach it. */
  thread?: SubagentThread;
  model?: string;
  thinking?: string;
  runTimeoutSeconds?: number;
  expectsCompletionMessage: boolean;
  /** The requester's sender policy, frozen at spawn. */
  senderIsOwner: boolean;
  depth: number;
  createdAt: number;
  /** Set once the record is over for good (run mode: after its round; session mode: killed, reset, deleted). */
  endedAt?: number;
  outcome?: SubagentOutcome;
  endedReason?: SubagentEndedReason;
  /** The last round's result as announced, ≤ 100 KB; the whole text is in `frozenResultFile` when it was larger. */
  frozenResultText?: string | null;
  frozenResultFile?: string;
  frozenResultBytes?: number;
  accumulatedRuntimeMs: number;
  runs: { total: number; ok: number; failed: number };
  /** Tokens of the child's session when the last round ended. */
  tokens?: { input: number; output: number };
  /** The run the child is on now (the task, a steer restart). */
  currentRunId: string;
  round: number;
  /** A round is open from its first message until it settles (its runs and its own children are done). */
  roundOpen: boolean;
  roundStartedAt: number;
  lastRoundEndedAt?: number;
  lastRunStatus?: string;
  lastError?: string;
  killRequested?: boolean;
  /** Why this record announces nothing (its requester's tree was killed). */
  suppressReason?: string;
  steerCount: number;
  lastSteerAt?: number;
  /** A steer restart is stopping the current run: its end must not settle the round. */
  steering?: boolean;
  announce?: SubagentAnnouncement;
}

/** `task_completion`: how a child's end reaches its requester. */
export interface TaskCompletionEvent {
  type: "task_completion";
  /** `subagent`: a child's round ended; `cron`: an isolated scheduled run reports to a session. */
  source: "subagent" | "cron";
  childSessionKey: string;
  childSessionId?: string;
  announceType: "subagent task" | "cron job";
  taskLabel: string;
  status: "ok" | "timeout" | "error" | "unknown";
  statusLabel: string;
  result: string;
  statsLine: string;
  replyInstruction: string;
}

export const FROZEN_RESULT_MAX_BYTES = 100 * 1024;
/** Transient delivery failures are retried after these delays, then every last one until the deadline. */
export const ANNOUNCE_RETRY_DELAYS_MS: readonly number[] = [5_000, 10_000, 20_000];
export const ANNOUNCE_SOFT_EXPIRY_MS = 5 * 60_000;
export const ANNOUNCE_HARD_EXPIRY_MS = 30 * 60_000;
export const MAX_STEER_MESSAGE_CHARS = 4_000;
export const STEER_RATE_LIMIT_MS = 2_000;
export const STEER_ABORT_SETTLE_TIMEOUT_MS = 5_000;
export const RECENT_MINUTES = 30;
