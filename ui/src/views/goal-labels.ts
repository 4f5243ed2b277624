/** A session goal's status as OpenClaw's Control UI and TUI name it. */
export type GoalStatus = "active" | "paused" | "blocked" | "usage_limited" | "budget_limited" | "complete";

/** The label that says each status without relying on the icon's colour. */
export const GOAL_STATUS_LABEL: Record<GoalStatus, string> = {
  active: "Pursuing goal",
  paused: "Goal paused",
  blocked: "Goal blocked",
  usage_limited: "Goal hit usage limits",
  budget_limited: "Goal unmet (budget reached)",
  complete: "Goal achieved",
};

/** The icon before the label: a target ring while pursued, a pause bar, a warning when blocked or limited, a check when achieved. */
export const GOAL_STATUS_ICON: Record<GoalStatus, string> = {
  active: "◎",
  paused: "‖",
  blocked: "⚠",
  usage_limited: "⚠",
  budget_limited: "⚠",
  complete: "✓",
};

/** A token count compactly: 950, 12k, 1.5M. */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  const [value, unit] = n < 1_000_000 ? [n / 1000, "k"] : [n / 1_000_000, "M"];
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, "")}${unit}`;
}

/** Tokens as the pill shows them: used, or used/budget. */
export function goalTokens(goal: { tokensUsed: number; tokenBudget?: number }): string {
  return goal.tokenBudget !== undefined ? `${compactTokens(goal.tokensUsed)}/${compactTokens(goal.tokenBudget)}` : compactTokens(goal.tokensUsed);
}

/**
 * How long the goal has been pursued: from its start to now while active, else frozen at the time
 * it stopped (paused, blocked, limited, achieved; its last update when no stop time is kept).
 * `45s`, `12m 05s`, `3h 07m`.
 */
export function goalElapsed(
  goal: { status: GoalStatus; createdAt: number; updatedAt: number; pausedAt?: number; blockedAt?: number; completedAt?: number; budgetLimitedAt?: number },
  now: number,
): string {
  const stoppedAt = {
    paused: goal.pausedAt,
    blocked: goal.blockedAt,
    complete: goal.completedAt,
    budget_limited: goal.budgetLimitedAt,
    usage_limited: undefined,
    active: undefined,
  }[goal.status];
  const end = goal.status === "active" ? now : (stoppedAt ?? goal.updatedAt);
  const seconds = Math.max(0, Math.floor((end - goal.createdAt) / 1000));
  const two = (n: number) => String(n).padStart(2, "0");
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${two(seconds % 60)}s`;
  return `${Math.floor(seconds / 3600)}h ${two(Math.floor((seconds % 3600) / 60))}m`;
}
