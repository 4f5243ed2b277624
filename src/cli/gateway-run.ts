import { runGateway, GatewayStartError, type RunningGateway } from "../gateway/run-gateway.js";
import { StateLockError } from "../gateway/state-lock.js";
import type { BindMode } from "../gateway/bind-host.js";
import type { AuthMode } from "../gateway/auth/resolve-auth.js";
import { CliError, parsePortFlag } from "./output.js";

export interface ServerFlags {
  port?: string;
  bind?: BindMode;
  auth?: AuthMode;
  token?: string;
  password?: string;
  allowUnconfigured?: boolean;
  logLevel?: string;
}

/** `openclaw gateway run`: serve in the foreground until SIGINT/SIGTERM. */
export async function gatewayRunCommand(flags: ServerFlags): Promise<void> {
  let gateway: RunningGateway | undefined;
  let stopSignal: string | undefined;
  let signals = 0;
  const stopAndExit = (running: RunningGateway, signal: string) => {
    running
      .stop(`gateway stopping (${signal})`)
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  // Handlers go in before start-up: a SIGTERM while starting must still release the lock and
  // close cleanly once the gateway is up, not kill it half-way.
  const onSignal = (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(1); // a second signal means "now"
    stopSignal = signal;
    if (gateway) stopAndExit(gateway, signal);
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
  // SIGHUP reloads the config (the daemon convention), instead of Node's default of exiting.
  process.on("SIGHUP", () => gateway?.reloadConfig());

  try {
    gateway = await runGateway({
      env: process.env,
      port: parsePortFlag(flags.port),
      bind: flags.bind,
      authMode: flags.auth,
      token: flags.token,
      password: flags.password,
      logLevel: flags.logLevel,
      allowUnconfigured: flags.allowUnconfigured,
      // `gateway start` turns the mirror off: its output file would be a second copy of the log.
      console: process.env.OPENCLAW_LOG_CONSOLE !== "off",
      notice: (text) => process.stdout.write(text),
      // A terminal gets the link with the token; redirected output (a daemon's log file) does not.
      controlUiLinkWithToken: process.stdout.isTTY === true,
    });
  } catch (err) {
    if (err instanceof GatewayStartError || err instanceof StateLockError) throw new CliError(err.message);
    throw err;
  }
  if (stopSignal) stopAndExit(gateway, stopSignal);
}
