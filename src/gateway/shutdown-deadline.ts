import { ACCOUNT_STOP_WAIT_MS } from "../channels/account-stop-wait.js";
import type { OpenClawConfig } from "../config/index.js";
import { CRON_STOP_WAIT_MS } from "../cron/stop-wait.js";
import { DEFAULT_HOOK_TIMEOUT_MS } from "../hooks/internal/hook-timeout.js";

/** How long the stop waits for aborted turns to persist what they have before it goes on. */
export const TURN_DRAIN_WAIT_MS = 1_000;
/** How long clients get to close their WebSocket after the `shutdown` event before they are cut. */
export const CLIENT_GOODBYE_WAIT_MS = 500;
/** Room for the stages without a bound of their own (ACP agents, stores, memory index, traces, the port): milliseconds when healthy. */
const UNBOUNDED_STAGES_MARGIN_MS = 5_000;

export const SHUTDOWN_TIMEOUT_ENV = "OPENCLAW_SHUTDOWN_TIMEOUT_MS";

/**
 * The whole stop's deadline: `OPENCLAW_SHUTDOWN_TIMEOUT_MS` when set, else the sum of the bounded
 * stages' budgets — the `gateway:shutdown` hooks (`hooks.internal.timeoutMs`; they run side by
 * side), the turn drain, cron's wait, one channel account's stop (accounts stop side by side) and
 * the clients' goodbye — plus a margin for the rest: 17.5 s with the defaults.
 */
export function shutdownDeadlineMs(config: OpenClawConfig, env: NodeJS.ProcessEnv): number {
  const fromEnv = shutdownTimeoutFromEnv(env);
  if (fromEnv !== undefined) return fromEnv;
  const hooks = config.hooks?.internal?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  return hooks + TURN_DRAIN_WAIT_MS + CRON_STOP_WAIT_MS + ACCOUNT_STOP_WAIT_MS + CLIENT_GOODBYE_WAIT_MS + UNBOUNDED_STAGES_MARGIN_MS;
}

/** `OPENCLAW_SHUTDOWN_TIMEOUT_MS` as milliseconds; undefined when unset; an error naming the fix when it is no positive whole number. */
export function shutdownTimeoutFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[SHUTDOWN_TIMEOUT_ENV];
  if (raw === undefined || raw === "") return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(ms) || ms <= 0 || ms > 2_147_483_647) {
    throw new Error(`${SHUTDOWN_TIMEOUT_ENV} must be a whole number of milliseconds from 1 to 2147483647 (got "${raw}"); set it so, or unset it for the default deadline`);
  }
  return ms;
}

/** A deadline in words for the log: "17.5 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
