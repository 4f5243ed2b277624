import type { EarlyListen } from "../gateway/early-listen.js";
import { runGateway, type RunningGateway } from "../gateway/run-gateway.js";
import { formatSeconds } from "../gateway/shutdown-deadline.js";
import { GatewayStartError } from "../gateway/start-error.js";
import { StateLockError } from "../gateway/state-lock.js";
import type { BindMode } from "../gateway/bind-host.js";
import type { AuthMode } from "../gateway/auth/resolve-auth.js";
import { resolveStateDir } from "../config/index.js";
import { writeStabilityBundle, type BundleReason } from "../infra/stability/stability-bundle.js";
import { stability } from "../infra/stability/stability-recorder.js";
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

/** How long clients are told to wait for the new gateway after a restart's `shutdown` event. */
const RESTART_EXPECTED_MS = 3_000;

/**
 * `openclaw gateway run`: serve in the foreground until SIGINT/SIGTERM; a requested restart
 * (config.apply) starts a new gateway in this process. `early`: the port the CLI entry opened
 * before this code loaded, for the first start only.
 */
export async function gatewayRunCommand(flags: ServerFlags, early?: Promise<EarlyListen | undefined>): Promise<void> {
  let gateway: RunningGateway | undefined;
  /** The gateway whose stop is under way, for a second signal to report on. */
  let stoppingGateway: RunningGateway | undefined;
  let stopSignal: string | undefined;
  let signals = 0;
  /** Stops `running`; past its deadline the stop is given up on: one error names what hung, and the process exits 1. */
  const stopWithinDeadline = async (running: RunningGateway, reason: string, restartExpectedMs?: number): Promise<void> => {
    stoppingGateway = running;
    const deadlineMs = running.stopDeadlineMs();
    const timer = setTimeout(() => {
      running.abandonStop(`shutdown deadline (${formatSeconds(deadlineMs)}) passed`);
      persistStability(running.stateDir, "gateway.shutdown_deadline");
      process.exit(1);
    }, deadlineMs);
    try {
      await running.stop(reason, restartExpectedMs);
    } finally {
      clearTimeout(timer);
    }
  };
  const stopAndExit = (running: RunningGateway, signal: string) => {
    stopWithinDeadline(running, `gateway stopping (${signal})`)
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  // Handlers go in before start-up: a SIGTERM while starting must still release the lock and
  // close cleanly once the gateway is up, not kill it half-way.
  const onSignal = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      // A second signal means "now": say what the stop was still waiting for, then go.
      stoppingGateway?.abandonStop(`shutdown cut short by a second ${signal}`);
      process.exit(1);
    }
    stopSignal = signal;
    if (gateway) stopAndExit(gateway, signal);
  };
  // An uncaught error still ends the process as Node does; first the stability stream is kept on disk.
  process.on("uncaughtExceptionMonitor", (err) => persistStability(gateway?.stateDir ?? resolveStateDir(process.env), "gateway.fatal", err));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
  // SIGHUP reloads the config (the daemon convention), instead of Node's default of exiting.
  process.on("SIGHUP", () => gateway?.reloadConfig());
  // SIGUSR2 restarts in this process, as OpenClaw's gateway does (Node's default would exit at
  // once, skipping the graceful stop). SIGUSR1 stays Node's: it opens the inspector.
  process.on("SIGUSR2", () => gateway?.restartOnSignal("SIGUSR2"));

  const start = async (port = parsePortFlag(flags.port), earlyListen?: EarlyListen): Promise<RunningGateway> => {
    try {
      return await runGateway({
        early: earlyListen,
        env: process.env,
        port,
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
        restart: (reason) => void restart(reason),
      });
    } catch (err) {
      persistStability(resolveStateDir(process.env), "gateway.start_failed", err);
      if (err instanceof GatewayStartError || err instanceof StateLockError) throw new CliError(err.message);
      throw err;
    }
  };

  // Same process, same pid (a service manager sees no exit); the new gateway reads the config afresh.
  const restart = async (reason: string): Promise<void> => {
    const old = gateway;
    if (!old || stopSignal) return;
    gateway = undefined;
    await stopWithinDeadline(old, `gateway restarting (${reason})`, RESTART_EXPECTED_MS);
    try {
      // `--port 0` picked a free port: keep it, so clients find the new gateway where the old one was.
      gateway = await start(parsePortFlag(flags.port) === 0 ? old.port : undefined);
    } catch (err) {
      process.stderr.write(`openclaw: the gateway did not come back after a restart: ${(err as Error).message}\n`);
      process.exit(1);
    }
    if (stopSignal) stopAndExit(gateway, stopSignal);
  };

  gateway = await start(undefined, await early);
  if (stopSignal) stopAndExit(gateway, stopSignal);
}

/** Writes the stability stream as a bundle (when it has events) and says where on stderr. */
function persistStability(stateDir: string, reason: BundleReason, error?: unknown): void {
  const file = writeStabilityBundle(stability, stateDir, reason, error);
  if (file) process.stderr.write(`openclaw: stability bundle written: ${file}\n`);
}
