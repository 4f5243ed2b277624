/** What `channels.start` answered about how the start went. */
export type StartOutcome = { status: "handed-off" } | { status: "retry"; reason: string } | { status: "skipped"; reason: string };

const RETRY_REASONS: Record<string, string> = {
  "task-owned": "It is running already.",
  "start-in-flight": "A start is still connecting; wait for it.",
  "stop-in-flight": "A stop is still closing it; press Start again in a moment.",
};

const SKIP_REASONS: Record<string, string> = {
  disabled: "Not started: the config disables this account (enabled: false).",
  unconfigured: "Not started: the account cannot start as configured (its last error says why).",
};

/** A retry or skipped outcome in plain words; a reason this UI does not know is shown as the gateway named it. */
export function outcomeReasonText(outcome: Exclude<StartOutcome, { status: "handed-off" }>): string {
  const words = outcome.status === "retry" ? RETRY_REASONS[outcome.reason] : SKIP_REASONS[outcome.reason];
  return words ?? (outcome.status === "retry" ? `Not started now: ${outcome.reason}.` : `Not started: ${outcome.reason}.`);
}
