/** How long stopping one account (its plugin's `stop()`) is waited for; see docs/channels.md#stopping. */
export const ACCOUNT_STOP_WAIT_MS = 5_000;
