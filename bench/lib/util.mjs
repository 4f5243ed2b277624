// Small helpers shared by the bench modules: timing, statistics, step timeouts.
import { performance } from "node:perf_hooks";

/** Monotonic milliseconds (fractional). */
export const now = () => performance.now();

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Error raised when a bench step fails; `step` names what was being measured. */
export class StepError extends Error {
  constructor(step, message) {
    super(`${step}: ${message}`);
    this.step = step;
  }
}

/**
 * Race `promise` against a timer. On timeout, `onTimeout` (if given) runs for cleanup and the
 * returned promise rejects with a StepError naming the step.
 */
export function withTimeout(promise, ms, step, onTimeout) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      try {
        onTimeout?.();
      } catch {
        // cleanup is best effort
      }
      reject(new StepError(step, `timed out after ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function round(value, digits = 1) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Median (mean of the two middle values for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile, p in (0, 100]. */
export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1];
}

/** {median, min, max, samples} rounded for printing. */
export function summarize(samples, digits = 1) {
  return {
    median: round(median(samples), digits),
    min: round(Math.min(...samples), digits),
    max: round(Math.max(...samples), digits),
    samples: samples.map((v) => round(v, digits)),
  };
}

export const MiB = 1024 * 1024;
