import type { SessionGoal } from "./session-goal.js";

/** Objectives longer than this are cut in the per-turn line (the whole objective stays in get_goal and /goal). */
const MAX_OBJECTIVE_CHARS = 200;

/**
 * The line a turn of a session with an active goal gives the model with the user's message
 * (OpenClaw's active-goal context): the objective on one line, cut to MAX_OBJECTIVE_CHARS, and
 * how to pursue it. Any other status gives none, so an operator's pause or a block holds.
 */
export function activeGoalContextLine(goal: SessionGoal | undefined | null): string | undefined {
  if (goal?.status !== "active") return undefined;
  const objective = goal.objective.replace(/\s+/g, " ").trim();
  const shown = objective.length <= MAX_OBJECTIVE_CHARS ? objective : `${cutBefore(objective, MAX_OBJECTIVE_CHARS - 1).trimEnd()}…`;
  return `Active goal: ${shown} — keep working toward it and keep it active until it is fully achieved; mark it blocked only after the same blocker on 3 turns in a row; after update_goal, still give the user the reply they asked for.`;
}

/** The first `n` UTF-16 units of `text`, never splitting a surrogate pair. */
function cutBefore(text: string, n: number): string {
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}
