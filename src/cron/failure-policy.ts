import type { CronJob } from "./types.js";

/** Waits after 1, 2, 3, 4, 5+ consecutive failures of a recurring job. */
export const BACKOFF_MS = [30_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000] as const;
/** Consecutive failures that raise an alert, and how often it may repeat. */
export const ALERT_AFTER_FAILURES = 2;
export const ALERT_COOLDOWN_MS = 60 * 60_000;
/** Consecutive failures after which a job is turned off. */
export const DISABLE_AFTER_FAILURES = 10;
/** A one-shot (`at`) job is tried this many times in all before it is turned off. */
export const ONE_SHOT_ATTEMPTS = 3;

export function backoffFor(consecutiveErrors: number): number {
  return BACKOFF_MS[Math.min(Math.max(consecutiveErrors, 1), BACKOFF_MS.length) - 1]!;
}

export interface FailureDecision {
  /** The earliest the job may run again (undefined: its schedule decides). */
  notBefore?: number;
  disable?: string;
  alert: boolean;
}

/**
 * What a failed run means for the job: back off (30 s, 60 s, 5 min, 15 min, 60 min), alert after
 * 2 failures in a row (at most hourly), turn the job off after 10 — or at once when the failure is
 * about the job itself (its target is gone) and it is one-shot.
 */
export function onFailure(job: CronJob, endedAt: number, permanent: boolean): FailureDecision {
  const failures = job.state.consecutiveErrors ?? 0;
  const alert = failures >= ALERT_AFTER_FAILURES && (job.state.lastAlertAtMs === undefined || endedAt - job.state.lastAlertAtMs >= ALERT_COOLDOWN_MS);
  if (job.schedule.kind === "at") {
    if (permanent) return { disable: `one-shot job failed: ${job.state.lastError ?? "error"}`, alert };
    if (failures >= ONE_SHOT_ATTEMPTS) return { disable: `one-shot job failed ${failures} times`, alert };
    return { notBefore: endedAt + backoffFor(failures), alert };
  }
  if (failures >= DISABLE_AFTER_FAILURES) return { disable: `${failures} consecutive failures`, alert };
  return { notBefore: endedAt + backoffFor(failures), alert };
}
