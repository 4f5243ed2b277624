import { PROGRESS_CARD_STEP_STATUSES, type ProgressCardContent, type ProgressCardStep, type ProgressCardStepStatus } from "./progress-card.js";
import { stripInvisibleText } from "./invisible-text.js";

/** OpenClaw's limits (docs/tools.md, "progress_card"). */
export const PROGRESS_CARD_LIMITS = {
  /** The Markdown note, in UTF-8 bytes. */
  markdownBytes: 8_192,
  steps: 50,
  /** One step's text, in UTF-8 bytes. */
  stepBytes: 512,
} as const;

export type ProgressCardInputCheck = { ok: true; content: ProgressCardContent } | { ok: false; rule: string };

/**
 * Checks one write (the tool's or `progressCard.put`'s `{plan?, markdown?}`) against the limits
 * and cleans it: invisible and bidirectional control characters are removed from the note and
 * each step, a blank note and an empty plan count as absent (both absent: the write clears the
 * card). A write that breaks a rule is refused as a whole, naming the rule; nothing is stored.
 * Sizes are measured on the text as sent, before cleaning, so padding cannot hide.
 */
export function checkProgressCardInput(input: { plan?: unknown; markdown?: unknown }): ProgressCardInputCheck {
  let markdown: string | undefined;
  if (input.markdown !== undefined && input.markdown !== null) {
    if (typeof input.markdown !== "string") return refuse("markdown must be a string");
    if (Buffer.byteLength(input.markdown, "utf8") > PROGRESS_CARD_LIMITS.markdownBytes) {
      return refuse(`markdown is over ${PROGRESS_CARD_LIMITS.markdownBytes} UTF-8 bytes`);
    }
    const cleaned = stripInvisibleText(input.markdown);
    if (cleaned.trim()) markdown = cleaned;
  }
  let steps: ProgressCardStep[] | undefined;
  if (input.plan !== undefined && input.plan !== null) {
    if (!Array.isArray(input.plan)) return refuse("plan must be an array of steps");
    if (input.plan.length > PROGRESS_CARD_LIMITS.steps) return refuse(`plan has ${input.plan.length} steps; at most ${PROGRESS_CARD_LIMITS.steps} are allowed`);
    const checked: ProgressCardStep[] = [];
    for (const [index, raw] of input.plan.entries()) {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return refuse(`plan[${index}] must be an object {step, status}`);
      const { step, status } = raw as Record<string, unknown>;
      if (typeof step !== "string") return refuse(`plan[${index}].step must be a string`);
      if (Buffer.byteLength(step, "utf8") > PROGRESS_CARD_LIMITS.stepBytes) return refuse(`plan[${index}].step is over ${PROGRESS_CARD_LIMITS.stepBytes} UTF-8 bytes`);
      const text = stripInvisibleText(step).trim();
      if (!text) return refuse(`plan[${index}].step must not be empty`);
      if (!isStepStatus(status)) return refuse(`plan[${index}].status must be one of ${PROGRESS_CARD_STEP_STATUSES.join(", ")}`);
      checked.push({ step: text, status });
    }
    const active = checked.filter((s) => s.status === "in_progress").length;
    if (active > 1) return refuse(`plan has ${active} in_progress steps; at most one step may be in_progress`);
    if (checked.length > 0) steps = checked;
  }
  return { ok: true, content: { ...(markdown !== undefined ? { markdown } : {}), ...(steps !== undefined ? { steps } : {}) } };
}

function isStepStatus(value: unknown): value is ProgressCardStepStatus {
  return (PROGRESS_CARD_STEP_STATUSES as readonly unknown[]).includes(value);
}

function refuse(rule: string): ProgressCardInputCheck {
  return { ok: false, rule };
}
