import type { SessionGoal } from "./session-goal.js";

/**
 * A client's goal control (`sessions.goal.update`, `sessions.goal.clear`): aimed at one goal by
 * id, named by an operation id the client keeps for retries, stamped with when it was issued.
 */
export type GoalOperation = {
  operationId: string;
  issuedAtMs: number;
  goalId: string;
  /** Pins the session generation: refused once the session was reset. */
  sessionId?: string;
} & ({ action: "edit"; objective: string } | { action: "resume"; note?: string } | { action: "pause" | "complete" | "block"; note?: string } | { action: "clear" });

/**
 * What an operation answered; a retry of the same operation gets it again with `replayed: true`.
 * A resume that started the goal's continuation turn is `started` and names that turn's `runId`.
 */
export interface GoalOperationResult {
  operationId: string;
  action: GoalOperation["action"];
  sessionId: string;
  goalId: string;
  status: "updated" | "cleared" | "started";
  goal?: SessionGoal;
  runId?: string;
  replayed?: true;
}

/**
 * How an operation that starts a turn is admitted: `runId` is the turn it will start (kept in the
 * receipt), `admit` refuses it by throwing (a busy session) after a replay was answered and
 * before anything is written.
 */
export interface GoalOperationAdmission {
  runId: string;
  admit: () => void;
}

/** A kept answer: the request it answered (to refuse the id's reuse for another) and when it expires. */
export interface GoalOperationReceipt {
  fingerprint: string;
  expiresAt: number;
  result: GoalOperationResult;
}

/** OpenClaw's receipt rules: valid 24 h from issue, at most 5 min ahead of the gateway's clock, 4,096 per session. */
export const GOAL_OPERATION_RULES = { validMs: 24 * 60 * 60 * 1000, futureSkewMs: 5 * 60 * 1000, maxReceipts: 4096 } as const;

/** Why an operation's time makes it unusable, or undefined when it is within the rules. */
export function operationTimeProblem(issuedAtMs: number, now: number): string | undefined {
  if (!Number.isSafeInteger(issuedAtMs) || issuedAtMs > now + GOAL_OPERATION_RULES.futureSkewMs) return "goal operation time is invalid; refresh and try again";
  if (issuedAtMs + GOAL_OPERATION_RULES.validMs <= now) return "goal operation expired; review the current goal before trying again";
  return undefined;
}

/** The request an operation id stands for: the same id with any other content is a different request. */
export function operationFingerprint(sessionKey: string, op: GoalOperation): string {
  const text = op.action === "edit" ? op.objective : op.action === "clear" ? null : (op.note ?? null);
  return JSON.stringify([sessionKey, op.action, op.goalId, op.sessionId ?? null, op.issuedAtMs, text]);
}

/** The receipts still valid at `now` (expired ones are dropped when the next operation is kept). */
export function liveReceipts(receipts: Record<string, GoalOperationReceipt> | undefined, now: number): Record<string, GoalOperationReceipt> {
  const live: Record<string, GoalOperationReceipt> = {};
  for (const [id, receipt] of Object.entries(receipts ?? {})) if (receipt.expiresAt > now) live[id] = receipt;
  return live;
}
