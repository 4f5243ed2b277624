import type { ModelErrorKind } from "../types.js";

/**
 * Why one model attempt failed, as the failover policy sees it (docs/models.md has the table).
 */
export type FailoverReason = "auth" | "billing" | "rate_limit" | "overloaded" | "timeout" | "server" | "network" | "format" | "context_overflow" | "aborted" | "config" | "unknown";

export interface AttemptFailure {
  kind: ModelErrorKind;
  message: string;
  status?: number;
}

const OVERLOADED = /overloaded|server is busy|capacity|ModelNotReady/i;
const BILLING = /billing|credit|insufficient.{0,20}(funds|quota|balance)|payment required/i;
// Temporary usage windows answered with 402 behave like rate limits.
const USAGE_WINDOW = /usage limit|try again|weekly limit|monthly limit|daily limit/i;
const RATE_LIMIT = /too many (concurrent )?requests|throttl|resource.?exhausted|rate.?limit/i;

export function failoverReason(failure: AttemptFailure): FailoverReason {
  const { kind, status, message } = failure;
  if (kind === "aborted") return "aborted";
  if (kind === "context_length") return "context_overflow";
  if (status === 402) return USAGE_WINDOW.test(message) && !BILLING.test(message) ? "rate_limit" : "billing";
  if (status === 529 || (status === 503 && OVERLOADED.test(message))) return "overloaded";
  if (kind === "auth") return BILLING.test(message) ? "billing" : "auth";
  if (kind === "rate_limit") return "rate_limit";
  if (kind === "timeout") return "timeout";
  if (kind === "server") return OVERLOADED.test(message) ? "overloaded" : RATE_LIMIT.test(message) ? "rate_limit" : "server";
  if (kind === "network") return "network";
  // The provider refused the request as malformed (400, 422), or its stream was: OpenClaw's `format`.
  if (kind === "malformed" || kind === "bad_request") return "format";
  if (kind === "config") return "config";
  return "unknown";
}

export type NextStep = "stop" | "next-key" | "one-more-key" | "next-model";

/**
 * What follows a failure: `stop` (the same request would fail, or is unwanted, everywhere),
 * `next-key` (this key is refused: the provider's next key), `one-more-key` (rate limit or
 * overload: one other key of the provider, then the next model), `next-model` (the provider is
 * failing: its other keys would fare no better).
 */
export function nextStep(reason: FailoverReason): NextStep {
  if (reason === "aborted" || reason === "context_overflow") return "stop";
  if (reason === "auth" || reason === "billing") return "next-key";
  if (reason === "rate_limit" || reason === "overloaded") return "one-more-key";
  return "next-model";
}

/** Failures that are the key's own: it cools down (billing: is disabled) so other turns skip it. */
export function coolsKey(reason: FailoverReason): boolean {
  return reason === "auth" || reason === "billing" || reason === "rate_limit" || reason === "timeout";
}

/** Short words for notices and `FailoverError` lines. */
export const REASON_TEXT: Record<FailoverReason, string> = {
  auth: "auth failed",
  billing: "billing",
  rate_limit: "rate limited",
  overloaded: "overloaded",
  timeout: "timed out",
  server: "server error",
  network: "network error",
  format: "format error",
  context_overflow: "context overflow",
  aborted: "aborted",
  config: "not configured",
  unknown: "error",
};
