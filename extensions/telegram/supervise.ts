import { sleep } from "../../src/infra/sleep.js";

/** What the error handler decides: wait and try again, or stop for good (e.g. token rejected). */
export type ErrorVerdict = "retry" | "give-up";

export interface SuperviseOptions {
  signal: AbortSignal;
  /** First wait after an error; doubles per consecutive error up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** One unit of work: "again" to run it once more, "done" to end the loop. */
  step(): Promise<"again" | "done">;
  onError(error: unknown, retryInMs: number): ErrorVerdict;
}

/**
 * Runs `step` until it is done, the signal aborts, or `onError` gives up. Never throws: a long
 * running connection must not die of one failure (or take the process with it). A success
 * resets the backoff.
 */
export async function supervise(options: SuperviseOptions): Promise<void> {
  let failures = 0;
  while (!options.signal.aborted) {
    try {
      if ((await options.step()) === "done") return;
      failures = 0;
    } catch (error) {
      if (options.signal.aborted) return;
      failures++;
      const delay = Math.min(options.baseDelayMs * 2 ** (failures - 1), options.maxDelayMs);
      if (options.onError(error, delay) === "give-up") return;
      await sleep(delay, options.signal);
    }
  }
}
