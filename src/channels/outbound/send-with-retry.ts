import { sleep } from "../../infra/sleep.js";
import { ChannelPermanentError, ChannelRateLimitError, type ChannelAccount, type OutboundTarget, type OutboundText, type SentMessage } from "../types.js";

export interface RetryPolicy {
  /** Failed attempts before giving up (rate-limit waits are not attempts). */
  maxAttempts: number;
  /** Wait before the second attempt; doubled each time. */
  backoffMs: number;
  /** A platform asking for more than this is treated as a failed attempt instead of a wait. */
  maxRateLimitWaitMs: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, backoffMs: 1_000, maxRateLimitWaitMs: 5 * 60_000 };

export type SendOutcome = { ok: true; sent: SentMessage } | { ok: false; permanent: boolean; error: string; attempts: number };

/**
 * One chunk to one chat, the way a careful person would: a 429 waits what the platform asked
 * (`retry_after`) and tries again without counting it as a failure; other errors are retried with
 * backoff up to `maxAttempts`; a permanent refusal (chat gone, bot blocked) stops at once.
 */
export async function sendWithRetry(
  account: ChannelAccount,
  target: OutboundTarget,
  text: OutboundText,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  const wait = policy.sleep ?? sleep;
  let attempts = 0;
  let lastError = "";
  while (attempts < policy.maxAttempts) {
    if (signal?.aborted) return { ok: false, permanent: false, error: "delivery stopped", attempts };
    try {
      return { ok: true, sent: await account.send(target, text) };
    } catch (err) {
      lastError = (err as Error).message;
      if (err instanceof ChannelPermanentError) return { ok: false, permanent: true, error: lastError, attempts: attempts + 1 };
      if (err instanceof ChannelRateLimitError && err.retryAfterMs <= policy.maxRateLimitWaitMs) {
        await wait(Math.max(0, err.retryAfterMs), signal);
        continue;
      }
      attempts += 1;
      if (attempts < policy.maxAttempts) await wait(policy.backoffMs * 2 ** (attempts - 1), signal);
    }
  }
  return { ok: false, permanent: false, error: lastError, attempts };
}
