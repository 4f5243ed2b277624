import type { SessionGoal } from "./session-goal.js";

/** A token count as the goal summary shows it: 950, 12k, 1.5M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${trimZero(n / 1000)}k`;
  return `${trimZero(n / 1_000_000)}M`;
}

const trimZero = (value: number) => (value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, ""));

/** What `/goal` (no arguments) shows: the goal's status, objective, tokens, note and the commands that apply. */
export function formatGoalStatus(goal: SessionGoal | null): string {
  if (!goal) return "No goal for this session.\nStart one with /goal start <objective>.";
  return [
    "Goal",
    `Status: ${goal.status}`,
    `Objective: ${goal.objective}`,
    `Tokens used: ${formatTokens(goal.tokensUsed)}`,
    ...(goal.tokenBudget !== undefined ? [`Token budget: ${formatTokens(goal.tokensUsed)}/${formatTokens(goal.tokenBudget)}`] : []),
    ...(goal.lastStatusNote ? [`Note: ${goal.lastStatusNote}`] : []),
    "",
    `Commands: ${commandsFor(goal.status)}`,
  ].join("\n");
}

function commandsFor(status: SessionGoal["status"]): string {
  if (status === "active") return "/goal edit <objective>, /goal pause, /goal complete, /goal clear";
  if (status === "complete") return "/goal clear";
  return "/goal resume, /goal edit <objective>, /goal clear";
}
