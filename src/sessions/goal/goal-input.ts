import { stripInvisibleText } from "../progress-card/invisible-text.js";

/** OpenClaw's limits on what a goal holds, in UTF-16 code units as its protocol counts them. */
export const GOAL_LIMITS = { objectiveChars: 16_000, noteChars: 2_000 } as const;

export type GoalTextCheck = { ok: true; text: string } | { ok: false; rule: string };

/**
 * An objective as it is stored: invisible and bidirectional controls removed, leading and
 * trailing whitespace trimmed (line breaks and spacing inside kept); it must have visible text
 * and fit GOAL_LIMITS.objectiveChars.
 */
export function checkGoalObjective(raw: unknown): GoalTextCheck {
  if (typeof raw !== "string") return { ok: false, rule: "objective must be a string" };
  const text = stripInvisibleText(raw).trim();
  if (!text) return { ok: false, rule: "objective required (it has no visible text)" };
  if (text.length > GOAL_LIMITS.objectiveChars) return { ok: false, rule: `objective is ${text.length} characters; the limit is ${GOAL_LIMITS.objectiveChars}` };
  return { ok: true, text };
}

/** A status note as it is stored (cleaned as an objective is); empty means no note. */
export function checkGoalNote(raw: unknown): GoalTextCheck {
  if (raw === undefined || raw === null) return { ok: true, text: "" };
  if (typeof raw !== "string") return { ok: false, rule: "note must be a string" };
  const text = stripInvisibleText(raw).trim();
  if (text.length > GOAL_LIMITS.noteChars) return { ok: false, rule: `note is ${text.length} characters; the limit is ${GOAL_LIMITS.noteChars}` };
  return { ok: true, text };
}

/** A token budget: a positive whole number, or none (absent or null). */
export function checkGoalTokenBudget(raw: unknown): { ok: true; budget: number | undefined } | { ok: false; rule: string } {
  if (raw === undefined || raw === null) return { ok: true, budget: undefined };
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw < 1) return { ok: false, rule: "token_budget must be a positive integer" };
  return { ok: true, budget: raw };
}
