import type { MediaFile } from "./media-file.js";

/** What every runnable attempt carries: its name in logs, and its limits. */
export interface AttemptLimits {
  label: string;
  maxBytes: number;
  maxChars?: number;
  timeoutMs: number;
}

/** A listed entry that cannot run here: tried as a failure naming why, then the next one. */
export interface UnusableAttempt {
  kind: "unusable";
  label: string;
  reason: string;
}

export type AttemptsOutcome = { ok: true; text: string; via: string } | { ok: false; failures: string[] };

/**
 * Runs the attempts in order until one gives text: an attempt whose `maxBytes` the file is over
 * is skipped, one that fails (an empty answer too, unless `emptyIsAnswer`) or outlasts its
 * timeout gives way to the next; each says why. The text is trimmed and cut at `maxChars`.
 */
export async function firstAnswer<A extends AttemptLimits & { kind: string }>(
  file: MediaFile,
  attempts: readonly (A | UnusableAttempt)[],
  run: (attempt: A, signal: AbortSignal) => Promise<string>,
  what: { noun: string; emptyIsAnswer: boolean },
): Promise<AttemptsOutcome> {
  const failures: string[] = [];
  for (const attempt of attempts) {
    if (isUnusable(attempt)) {
      failures.push(`${attempt.label}: ${attempt.reason}`);
      continue;
    }
    if (file.bytes > attempt.maxBytes) {
      failures.push(`${attempt.label}: the file is ${file.bytes} bytes, over its maxBytes (${attempt.maxBytes})`);
      continue;
    }
    const signal = AbortSignal.timeout(attempt.timeoutMs);
    try {
      const text = (await run(attempt, signal)).trim();
      if (!text && !what.emptyIsAnswer) throw new Error("the answer was empty");
      return { ok: true, text: attempt.maxChars && text.length > attempt.maxChars ? text.slice(0, attempt.maxChars) : text, via: attempt.label };
    } catch (error) {
      failures.push(
        `${attempt.label}: ${signal.aborted ? `no ${what.noun} within ${Math.round(attempt.timeoutMs / 1000)} s (timeoutSeconds)` : error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return { ok: false, failures };
}

function isUnusable(attempt: { kind: string }): attempt is UnusableAttempt {
  return attempt.kind === "unusable";
}
