/**
 * What `channels.start` decided for one account (OpenClaw's outcome shapes):
 * - `handed-off`: the account was started; channels.status says when it is connected.
 * - `retry`: something else owns the account now: it already runs (`task-owned`), its start is
 *   still connecting (`start-in-flight`), or a `channels.stop` of it is still closing it (`stop-in-flight`).
 * - `skipped`: the config disables the account, or it cannot start as configured (a missing
 *   credential, another account's bot token); fix the config, then start it.
 */
export type AccountStartOutcome =
  | { status: "handed-off" }
  | { status: "retry"; reason: "task-owned" | "start-in-flight" | "stop-in-flight" }
  | { status: "skipped"; reason: "disabled" | "unconfigured" };

/** The `lastError` of an account `channels.stop` stopped, until `channels.start` (or a gateway restart) starts it. */
export const MANUAL_STOP_NOTE = "stopped by channels.stop; channels.start (or a gateway restart) starts it again";

/**
 * How long `channels.start` waits for the platform to accept the account (Telegram's `getMe`,
 * Discord's and Slack's sockets) before it answers: past it the start goes on in the background
 * and the answer says `started: false`.
 */
export const MANUAL_START_WAIT_MS = 10_000;

/** A `channels.start` that cannot run now: the gateway is stopping, or the channel's plugin cannot be loaded. The message says why. */
export class AccountStartRefused extends Error {}
