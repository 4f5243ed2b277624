import type { ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { withGateway } from "./with-gateway.js";

/**
 * `openclaw system …`: system events, heartbeat switches and presence on the running gateway
 * (docs/automation.md#heartbeat). As in OpenClaw's CLI, `heartbeat` and `presence` print the
 * method's JSON payload with or without --json; `event` prints `ok` (its payload with --json).
 */

const WAKE_MODES = ["now", "next-heartbeat"] as const;
type WakeMode = (typeof WAKE_MODES)[number];

function call(flags: ClientFlags, method: string, params: unknown): Promise<unknown> {
  return withGateway(flags, (gateway) => gateway(method, params));
}

/** `--mode`: the wake mode, `next-heartbeat` when not given (as OpenClaw). */
function wakeMode(value: string | undefined): WakeMode {
  const mode = value?.trim() || "next-heartbeat";
  if (!(WAKE_MODES as readonly string[]).includes(mode)) throw new CliError(`--mode: expected now or next-heartbeat, got "${value}"`);
  return mode as WakeMode;
}

/**
 * `openclaw system event --text T [--mode now|next-heartbeat] [--session-key K]`: a system event
 * for the agent's main session (or the session named), through `wake`.
 */
export async function systemEventCommand(flags: ClientFlags & { text?: string; mode?: string; sessionKey?: string }): Promise<void> {
  const text = flags.text?.trim();
  if (!text) throw new CliError('--text is required: the system event\'s text (openclaw system event --text "deploy finished")');
  const mode = wakeMode(flags.mode);
  const sessionKey = flags.sessionKey?.trim();
  if (flags.sessionKey !== undefined && !sessionKey) throw new CliError("--session-key: expected a session key, got an empty value");
  const result = await call(flags, "wake", { mode, text, ...(sessionKey ? { sessionKey } : {}) });
  if (flags.json) return printJson(result);
  process.stdout.write("ok\n");
}

/** `openclaw system heartbeat last`: the last beat (`last-heartbeat`), `null` before the first. */
export async function systemHeartbeatLastCommand(flags: ClientFlags): Promise<void> {
  printJson(await call(flags, "last-heartbeat", {}));
}

/** `openclaw system heartbeat enable|disable`: every heartbeat on or off until the gateway restarts (`set-heartbeats`). */
export async function systemHeartbeatSetCommand(enabled: boolean, flags: ClientFlags): Promise<void> {
  printJson(await call(flags, "set-heartbeats", { enabled }));
}

/** `openclaw system presence`: the gateway's own entry and its UI, webchat and node clients (`system-presence`). */
export async function systemPresenceCommand(flags: ClientFlags): Promise<void> {
  printJson(await call(flags, "system-presence", {}));
}
