import fs from "node:fs";
import { spawn } from "node:child_process";
import { loadConfig, resolveStateDir } from "../config/index.js";
import { resolveServerAuth } from "../gateway/auth/resolve-auth.js";
import { readLiveLock, type LockInfo } from "../gateway/state-lock.js";
import { localGatewayTlsPin, type GatewayTlsConfig } from "../gateway/tls/gateway-tls-files.js";
import { probeStatus } from "../infra/tls/probe-status.js";
import { displayTlsFingerprint } from "../infra/tls/tls-fingerprint.js";
import { daemonNodeFlags } from "../infra/daemon-node-flags.js";
import { ensurePrivateDir, gatewayStatePaths } from "../infra/paths.js";
import { isProcessAlive, waitForExit } from "../infra/process-alive.js";
import { connectClient, type ClientFlags } from "./client-context.js";
import { formatDuration } from "./gateway-call.js";
import type { ServerFlags } from "./gateway-run.js";
import { CliError, parsePortFlag, parseTimeoutSeconds, printJson } from "./output.js";
import type { GatewayStatusSnapshot } from "./gateway-snapshots.js";

const START_TIMEOUT_MS = 15_000;

/**
 * `openclaw gateway start`: run `gateway run` as a detached process with its output in
 * <state>/logs/gateway.out.log and its pid in <state>/gateway.pid; return once it is ready.
 */
export async function gatewayStartCommand(flags: ServerFlags & { json?: boolean }): Promise<void> {
  const env = process.env;
  const stateDir = resolveStateDir(env);
  const running = readLiveLock(stateDir);
  if (running) {
    // The wanted state is reached: say where it runs, and succeed.
    const host = running.host === "0.0.0.0" ? "127.0.0.1" : running.host;
    if (flags.json) printJson({ ok: true, alreadyRunning: true, pid: running.pid, host: running.host, port: running.port });
    else process.stdout.write(`Gateway already running (pid ${running.pid}) on ${running.tls ? "wss" : "ws"}://${host}:${running.port}\n`);
    return;
  }
  ensurePrivateDir(stateDir);
  // Fail here, in the user's terminal, rather than in a log file nobody reads.
  const loaded = loadConfig({ stateDir, env });
  parsePortFlag(flags.port);
  // Generate the token now so the one-time notice reaches this terminal, not the daemon's log.
  const auth = resolveServerAuth(loaded.config, stateDir, env, { mode: flags.auth, token: flags.token, password: flags.password });
  if (auth.generatedTokenFile && !flags.json) {
    process.stdout.write(`Generated a gateway token (shown once): ${auth.token}\nIt is stored in ${auth.generatedTokenFile} (mode 0600).\n`);
  }

  const paths = gatewayStatePaths(stateDir);
  fs.mkdirSync(paths.logDir, { recursive: true, mode: 0o700 });
  const out = fs.openSync(paths.daemonOutFile, "a", 0o600);
  fs.fchmodSync(out, 0o600); // a file left by an older version may be wider
  // The script this CLI runs from (bundled or not) is the one the daemon runs.
  const mainScript = process.argv[1]!;
  // V8 reads its flags when the process starts: the daemon's go on its command line.
  const child = spawn(process.execPath, [...daemonNodeFlags(), mainScript, "gateway", "run", ...forwardedFlags(flags)], {
    detached: true,
    stdio: ["ignore", out, out],
    env: childEnv(env, flags),
  });
  fs.closeSync(out);
  child.unref();
  const pid = child.pid!;
  fs.writeFileSync(paths.pidFile, `${pid}\n`, { mode: 0o600 });

  const tls = loaded.config.gateway.tls?.enabled === true ? loaded.config.gateway.tls : undefined;
  const lock = await waitForReady(stateDir, pid, tls);
  if (!lock) {
    const tail = readTail(paths.daemonOutFile, 2000);
    throw new CliError(`gateway failed to start (see ${paths.daemonOutFile})\n${tail}`);
  }
  const result = { ok: true, pid, host: lock.host, port: lock.port, log: paths.daemonOutFile, ...(tls ? { tls: true } : {}) };
  if (flags.json) printJson(result);
  else process.stdout.write(`Gateway started (pid ${pid}) on ${tls ? "wss" : "ws"}://${lock.host}:${lock.port}; output in ${paths.daemonOutFile}\n`);
}

/** `openclaw gateway stop`: SIGTERM the gateway that holds this state dir's lock, wait for it to exit. */
export async function gatewayStopCommand(flags: { json?: boolean; timeout?: string }): Promise<void> {
  const stateDir = resolveStateDir(process.env);
  const paths = gatewayStatePaths(stateDir);
  const lock = readLiveLock(stateDir);
  if (!lock) {
    fs.rmSync(paths.pidFile, { force: true });
    if (flags.json) printJson({ ok: true, stopped: false, reason: "not running" });
    else process.stdout.write("Gateway is not running\n");
    return;
  }
  // By default as long as the gateway's own stop may take (its deadline, then its exit), and at least 10 s.
  const deadlineMs = typeof lock.stopDeadlineMs === "number" && Number.isFinite(lock.stopDeadlineMs) ? lock.stopDeadlineMs : 0;
  const timeoutMs = parseTimeoutSeconds(flags.timeout, Math.max(10, Math.ceil(deadlineMs / 1000) + 2));
  process.kill(lock.pid, "SIGTERM");
  const exited = await waitForExit(lock.pid, timeoutMs);
  if (!exited) throw new CliError(`gateway (pid ${lock.pid}) did not exit within ${timeoutMs / 1000} s; it may still be finishing runs (try again, or kill -9 ${lock.pid})`);
  fs.rmSync(paths.pidFile, { force: true });
  if (flags.json) printJson({ ok: true, stopped: true, pid: lock.pid });
  else process.stdout.write(`Gateway stopped (pid ${lock.pid})\n`);
}

export async function gatewayRestartCommand(flags: ServerFlags & { json?: boolean }): Promise<void> {
  await gatewayStopCommand({ json: false });
  await gatewayStartCommand(flags);
}

/** `openclaw gateway status`: pid, port and uptime, from the running gateway's health RPC. */
export async function gatewayStatusCommand(flags: ClientFlags): Promise<void> {
  const stateDir = resolveStateDir(process.env);
  const lock = readLiveLock(stateDir);
  if (!lock && !flags.url && !flags.port) {
    if (flags.json) printJson({ ok: false, running: false });
    else process.stdout.write("Gateway: not running\n");
    process.exitCode = 1;
    return;
  }
  const client = await connectClient(flags);
  try {
    await client.call("health", {});
    const gw = (await client.call("status", {})) as GatewayStatusSnapshot;
    if (flags.json)
      return printJson({
        ok: true,
        running: true,
        pid: gw.pid,
        host: gw.host,
        port: gw.port,
        uptimeMs: gw.uptimeMs,
        version: gw.version,
        connections: gw.connections,
        ...(gw.tls ? { tls: gw.tls } : {}),
      });
    const tlsLine = gw.tls ? `TLS: sha256 ${displayTlsFingerprint(gw.tls.fingerprintSha256)} (valid until ${gw.tls.validTo})\n` : "";
    process.stdout.write(
      `Gateway: running\nPID: ${gw.pid}\nListening: ${gw.tls ? "wss" : "ws"}://${gw.host}:${gw.port}\n${tlsLine}Uptime: ${formatDuration(gw.uptimeMs)}\nVersion: ${gw.version}\nConnections: ${gw.connections}\n`,
    );
  } finally {
    client.close();
  }
}

/** Secrets travel by environment, not argv: argv is visible to every local user in `ps`. */
function childEnv(env: NodeJS.ProcessEnv, flags: ServerFlags): NodeJS.ProcessEnv {
  return {
    // glibc gives each thread that allocates its own malloc arena; V8's compiler and GC threads
    // then fragment several of them, and a long-running gateway's RSS keeps growing for that alone
    // (docs/architecture.md, "Memory over weeks"). Two arenas keep that flat (other libcs ignore
    // it). Read only when a process starts, so it is set here, for the daemon, unless already
    // given.
    MALLOC_ARENA_MAX: "2",
    ...env,
    // The log goes to <state>/logs/gateway.log; the output file keeps only what is not a log
    // line (start-up notices, a crash's stack), not a second copy of every line.
    OPENCLAW_LOG_CONSOLE: "off",
    ...(flags.token ? { OPENCLAW_GATEWAY_TOKEN: flags.token } : {}),
    ...(flags.password ? { OPENCLAW_GATEWAY_PASSWORD: flags.password } : {}),
  };
}

function forwardedFlags(flags: ServerFlags): string[] {
  const args: string[] = [];
  if (flags.port) args.push("--port", flags.port);
  if (flags.bind) args.push("--bind", flags.bind);
  if (flags.auth) args.push("--auth", flags.auth);
  if (flags.allowUnconfigured) args.push("--allow-unconfigured");
  if (flags.logLevel) args.push("--log-level", flags.logLevel);
  return args;
}

async function waitForReady(stateDir: string, pid: number, tls: GatewayTlsConfig | undefined): Promise<LockInfo | undefined> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return undefined;
    const lock = readLiveLock(stateDir);
    if (lock?.pid === pid && lock.port > 0 && (await isReady(lock, stateDir, tls))) return lock;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** `/readyz` answers 200; with gateway.tls over https, pinned to the certificate the gateway generated or was given (the port opens after it exists). */
async function isReady(lock: LockInfo, stateDir: string, tls: GatewayTlsConfig | undefined): Promise<boolean> {
  const host = lock.host === "0.0.0.0" ? "127.0.0.1" : lock.host;
  if (!tls) return (await probeStatus(`http://${host}:${lock.port}/readyz`)) === 200;
  return (await probeStatus(`https://${host}:${lock.port}/readyz`, { tlsFingerprint: localGatewayTlsPin(tls, stateDir) })) === 200;
}

function readTail(file: string, bytes: number): string {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.slice(-bytes);
  } catch {
    return "";
  }
}
