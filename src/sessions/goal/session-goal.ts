/**
 * A session's goal (OpenClaw's session goal): one durable objective the operator and the agent
 * share, with a status, an optional token budget and the tokens spent on it. It lives on the
 * session's entry in `sessions.json` (`goal`); a reset or delete of the session ends it.
 */

export const SESSION_GOAL_STATUSES = ["active", "paused", "blocked", "usage_limited", "budget_limited", "complete"] as const;
export type SessionGoalStatus = (typeof SESSION_GOAL_STATUSES)[number];

/** The statuses the model may set with update_goal; pausing, resuming, editing and clearing stay the operator's. */
export const MODEL_GOAL_STATUSES = ["complete", "blocked"] as const;
export type ModelGoalStatus = (typeof MODEL_GOAL_STATUSES)[number];

export interface SessionGoal {
  schemaVersion: 1;
  /** Identifies this goal: a control naming another id is stale (the goal was replaced). */
  id: string;
  objective: string;
  status: SessionGoalStatus;
  createdAt: number;
  updatedAt: number;
  /** The session's total tokens when the current budget window began. */
  tokenStart: number;
  tokensUsed: number;
  tokenBudget?: number;
  lastStatusNote?: string;
  pausedAt?: number;
  blockedAt?: number;
  completedAt?: number;
  usageLimitedAt?: number;
  budgetLimitedAt?: number;
}

/** A change the goal's rules do not allow (no goal, one already there, a complete goal); the message names it. */
export class GoalTransitionError extends Error {}

/** A new active goal, its budget window starting at the session's current total tokens. */
export function createdGoal(existing: SessionGoal | undefined, fields: { objective: string; tokenBudget?: number }, totalTokens: number, now: number, id: string): SessionGoal {
  if (existing) throw new GoalTransitionError("goal already exists");
  return {
    schemaVersion: 1,
    id,
    objective: fields.objective,
    status: "active",
    createdAt: now,
    updatedAt: now,
    tokenStart: totalTokens,
    tokensUsed: 0,
    ...(fields.tokenBudget !== undefined ? { tokenBudget: fields.tokenBudget } : {}),
  };
}

/**
 * The goal with the tokens spent since its window began (never less than already counted); an
 * active goal whose budget is used up becomes budget_limited. The same object when nothing changed.
 */
export function accountedGoal(goal: SessionGoal, totalTokens: number, now: number): SessionGoal {
  const tokensUsed = Math.max(goal.tokensUsed, totalTokens - goal.tokenStart);
  const overBudget = goal.status === "active" && goal.tokenBudget !== undefined && tokensUsed >= goal.tokenBudget;
  if (tokensUsed === goal.tokensUsed && !overBudget) return goal;
  return { ...goal, tokensUsed, ...(overBudget ? { status: "budget_limited" as const, budgetLimitedAt: now, updatedAt: now } : {}) };
}

/**
 * The goal moved to `status` with an optional note. A complete goal only takes another
 * completion (which keeps its first completion time); resuming a limited goal, or one whose
 * budget is spent, starts a fresh budget window at the session's current total.
 */
export function goalWithStatus(current: SessionGoal | undefined, status: SessionGoalStatus, note: string | undefined, totalTokens: number, now: number): SessionGoal {
  if (!current) throw new GoalTransitionError("goal not found");
  const goal = accountedGoal(current, totalTokens, now);
  if (goal.status === "complete" && status !== "complete") throw new GoalTransitionError("goal is already complete");
  const spent = goal.tokenBudget !== undefined && goal.tokensUsed >= goal.tokenBudget;
  const freshWindow = status === "active" && (goal.status === "budget_limited" || goal.status === "usage_limited" || spent);
  const next: SessionGoal = {
    ...goal,
    status,
    updatedAt: now,
    ...(note ? { lastStatusNote: note } : {}),
    ...(status === "paused" ? { pausedAt: now } : {}),
    ...(status === "blocked" ? { blockedAt: now } : {}),
    ...(status === "complete" ? { completedAt: goal.completedAt ?? now } : {}),
  };
  if (freshWindow) {
    next.tokenStart = totalTokens;
    next.tokensUsed = 0;
    delete next.budgetLimitedAt;
    delete next.usageLimitedAt;
  }
  return next;
}

/** The goal with a reworded objective; status and token accounting stay as they are. */
export function goalWithObjective(current: SessionGoal | undefined, objective: string, totalTokens: number, now: number): SessionGoal {
  if (!current) throw new GoalTransitionError("goal not found");
  const goal = accountedGoal(current, totalTokens, now);
  if (goal.status === "complete") throw new GoalTransitionError("goal is already complete");
  return { ...goal, objective, updatedAt: now };
}

/**
 * What a finished turn does to the session's goal: its tokens are counted (a spent budget makes
 * it budget_limited), and a turn that ended in an error or timeout pauses an active goal with the
 * error as its note (a later message does not resume it). The same object when nothing changed.
 */
export function goalAfterTurn(goal: SessionGoal, totalTokens: number, now: number, failure: string | undefined): SessionGoal {
  const accounted = accountedGoal(goal, totalTokens, now);
  if (failure === undefined || accounted.status !== "active") return accounted;
  return { ...accounted, status: "paused", pausedAt: now, updatedAt: now, lastStatusNote: failure };
}
