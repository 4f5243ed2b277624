/** How long the cron service's stop waits for its running jobs to settle. */
export const CRON_STOP_WAIT_MS = 1_000;
