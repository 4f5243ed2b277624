import { createHash } from "node:crypto";
import type { OpenClawConfig } from "../../config/index.js";

/** `diagnostics.traces.review` with its defaults (docs/traces.md#review-queue). */
export interface ReviewSettings {
  enabled: boolean;
  sampleRate: number;
  /** Minutes after host-local midnight; undefined: all day. */
  sampleWindow?: { start: number; end: number };
  /** 0: off. */
  highCostTokens: number;
  /** 0: off. */
  newModelMs: number;
  /** 0: off. */
  newPromptMs: number;
  /** The LLM judge of queued runs; absent: none runs. */
  judge?: JudgeSettings;
}

/** `diagnostics.traces.review.judge`: the rubric, and the model when it is not the default agent's. */
export interface JudgeSettings {
  rubric: string;
  model?: string;
  /** Names the rubric a verdict was graded against: a verdict under another rubric is outdated. */
  rubricHash: string;
}

export const DEFAULT_REVIEW_SAMPLE_RATE = 0.1;
export const DEFAULT_HIGH_COST_TOKENS = 200_000;
export const DEFAULT_NEW_MODEL_HOURS = 48;
export const DEFAULT_NEW_PROMPT_HOURS = 48;

export function reviewSettings(config: OpenClawConfig): ReviewSettings {
  const review = config.diagnostics?.traces?.review;
  const window = review?.sampleWindow;
  return {
    enabled: review?.enabled !== false,
    sampleRate: review?.sampleRate ?? DEFAULT_REVIEW_SAMPLE_RATE,
    ...(window ? { sampleWindow: { start: minutesOf(window.start), end: minutesOf(window.end) } } : {}),
    highCostTokens: review?.highCostTokens ?? DEFAULT_HIGH_COST_TOKENS,
    newModelMs: (review?.newModelHours ?? DEFAULT_NEW_MODEL_HOURS) * 3_600_000,
    newPromptMs: (review?.newPromptHours ?? DEFAULT_NEW_PROMPT_HOURS) * 3_600_000,
    ...(review?.judge ? { judge: judgeSettings(review.judge.rubric.trim(), review.judge.model) } : {}),
  };
}

/** `diagnostics.traces.review.reactionFeedback` (default true): a chat user's 👍/👎 on a run's reply rates that run. */
export function reactionFeedbackEnabled(config: OpenClawConfig): boolean {
  return config.diagnostics?.traces?.review?.reactionFeedback !== false;
}

function judgeSettings(rubric: string, model: string | undefined): JudgeSettings {
  return { rubric, ...(model ? { model } : {}), rubricHash: rubricHash(rubric) };
}

/** The first 16 hex digits of the rubric's SHA-256. */
export function rubricHash(rubric: string): string {
  return createHash("sha256").update(rubric).digest("hex").slice(0, 16);
}

function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}
