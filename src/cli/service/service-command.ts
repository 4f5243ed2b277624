import { daemonNodeFlags } from "../../infra/daemon-node-flags.js";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { loadConfig, resolveStateDir } from "../../config/index.js";
import { SHUTDOWN_TIMEOUT_ENV, shutdownDeadlineMs, shutdownTimeoutFromEnv } from "../../gateway/shutdown-deadline.js";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { gatewayStatePaths } from "../../infra/paths.js";
import { CliError, parseFixedPortFlag, printJson } from "../output.js";
import { homeDir, launchdLabel, launchdPlistPath, renderLaunchdPlist, renderSystemdUnit, systemdUnitName, systemdUnitPath, type ServiceSpec } from "./service-spec.js";
import { serviceStopTimeoutSec } from "./stop-timeout.js";

type Platform = "linux" | "darwin";

interface InstallFlags {
  port?: string;
  force?: boolean;
  json?: boolean;
}

function supportedPlatform(platform: NodeJS.Platform): Platform {
  if (platform === "linux" || platform === "darwin") return platform;
  throw new CliError(`gateway install supports Linux (systemd) and macOS (launchd), not ${platform}; run \`openclaw gateway start\` instead`);
}

/** Runs a service manager command; its failure is the install's failure, with the tool's own words. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { encoding: "utf8", env });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new CliError(missing ? `${command} not found on PATH` : `${command} ${args.join(" ")} failed: ${result.error.message}`);
  }
  if (result.status !== 0) throw new CliError(`${command} ${args.join(" ")} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim()}`);
}

function serviceSpec(env: NodeJS.ProcessEnv, flags: InstallFlags): ServiceSpec {
  const stateDir = resolveStateDir(env);
  const { config } = loadConfig({ stateDir, env }); // a broken config fails here, not in a restart loop
  const port = parseFixedPortFlag(flags.port);
  // The service's output file keeps what is not a log line, not a second copy of the log.
  const serviceEnv: Record<string, string> = { MALLOC_ARENA_MAX: "2", OPENCLAW_LOG_CONSOLE: "off", OPENCLAW_STATE_DIR: stateDir };
  if (env.OPENCLAW_CONFIG_PATH?.trim()) serviceEnv.OPENCLAW_CONFIG_PATH = path.resolve(env.OPENCLAW_CONFIG_PATH.trim());
  // The profile (`--profile`, `--dev`) and the port this CLI defaults to (`--dev`'s 19001) go with it.
  if (env.OPENCLAW_PROFILE?.trim()) serviceEnv.OPENCLAW_PROFILE = env.OPENCLAW_PROFILE.trim();
  if (env.OPENCLAW_GATEWAY_PORT?.trim()) serviceEnv.OPENCLAW_GATEWAY_PORT = env.OPENCLAW_GATEWAY_PORT.trim();
  if (env.PATH) serviceEnv.PATH = env.PATH; // tools the agents run (exec, ACP adapters) are found as in this shell
  try {
    const shutdownTimeout = shutdownTimeoutFromEnv(env);
    if (shutdownTimeout !== undefined) serviceEnv[SHUTDOWN_TIMEOUT_ENV] = String(shutdownTimeout);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  return {
    node: process.execPath,
    nodeArgs: daemonNodeFlags(),
    script: path.resolve(process.argv[1]!),
    args: ["gateway", "run", ...(port !== undefined ? ["--port", String(port)] : [])],
    env: serviceEnv,
    workingDir: homeDir(env),
    logFile: gatewayStatePaths(stateDir).daemonOutFile,
    label: launchdLabel(env),
    // The manager waits past the gateway's own deadline, so the gateway logs what hung before a kill.
    stopTimeoutSec: serviceStopTimeoutSec(shutdownDeadlineMs(config, serviceEnv)),
  };
}

/**
 * `openclaw gateway install`: a systemd user unit (Linux) or a launchd agent (macOS) that runs
 * `gateway run` with this CLI's node and script, restarts it when it fails (not when its config
 * is invalid: exit 78), and gives it MALLOC_ARENA_MAX=2 and the daemon's V8 flags. Its stop timeout
 * is the config's shutdown deadline plus a margin, at least 30 s. The token is not written into it: the
 * gateway reads it from the state dir.
 */
export function gatewayInstallCommand(flags: InstallFlags, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): void {
  const os = supportedPlatform(platform);
  const spec = serviceSpec(env, flags);
  const file = os === "linux" ? systemdUnitPath(env) : launchdPlistPath(env);
  if (fs.existsSync(file) && !flags.force) throw new CliError(`the gateway service is already installed (${file}); pass --force to rewrite it`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.mkdirSync(path.dirname(spec.logFile), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, os === "linux" ? renderSystemdUnit(spec) : renderLaunchdPlist(spec), 0o644);
  try {
    if (os === "linux") {
      run("systemctl", ["--user", "daemon-reload"], env);
      run("systemctl", ["--user", "enable", "--now", systemdUnitName(env)], env);
    } else {
      const domain = `gui/${process.getuid?.() ?? 0}`;
      if (flags.force) spawnSync("launchctl", ["bootout", `${domain}/${launchdLabel(env)}`], { env }); // not loaded yet is fine
      run("launchctl", ["bootstrap", domain, file], env);
    }
  } catch (err) {
    // The file stays: the service manager may already know it (enabled, then failed to start),
    // and removing it under systemd would leave a dangling link. The message says how to go on.
    throw new CliError(
      `${(err as Error).message}\nThe service file ${file} was written but the service is not running; once that is fixed, \`openclaw gateway install --force\` retries (\`openclaw gateway uninstall\` removes it).`,
    );
  }
  const manager = os === "linux" ? `systemd (user unit ${systemdUnitName(env)})` : `launchd (${launchdLabel(env)})`;
  if (flags.json) return printJson({ ok: true, manager: os === "linux" ? "systemd" : "launchd", file, started: true });
  process.stdout.write(
    `Installed and started the gateway under ${manager}: ${file}\n` +
      (os === "linux" ? "It starts at login; `loginctl enable-linger $USER` keeps it running after logout.\n" : "") +
      "`openclaw gateway status` shows it; `openclaw logs --follow` tails its log.\n",
  );
}

/** `openclaw gateway uninstall`: stops the service and removes its file. */
export function gatewayUninstallCommand(flags: { json?: boolean }, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): void {
  const file = gatewayServiceFile(platform, env);
  if (!fs.existsSync(file)) throw new CliError(`the gateway service is not installed (no ${file})`);
  removeGatewayService(platform, env);
  if (flags.json) return printJson({ ok: true, removed: file });
  process.stdout.write(`Stopped the gateway service and removed ${file}\n`);
}

/** Where the gateway's service file is (a systemd user unit, a launchd agent), installed or not. */
export function gatewayServiceFile(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  return supportedPlatform(platform) === "linux" ? systemdUnitPath(env) : launchdPlistPath(env);
}

/**
 * Stops the installed gateway service without removing it (it starts again at the next login or
 * `systemctl --user start`); returns its name. A service manager that fails throws CliError.
 */
export function stopGatewayService(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (supportedPlatform(platform) === "linux") {
    run("systemctl", ["--user", "stop", systemdUnitName(env)], env);
    return systemdUnitName(env);
  }
  run("launchctl", ["bootout", `gui/${process.getuid?.() ?? 0}/${launchdLabel(env)}`], env);
  return launchdLabel(env);
}

/** Stops the installed gateway service and removes its file; a service manager that fails throws CliError. */
export function removeGatewayService(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): void {
  const os = supportedPlatform(platform);
  const file = gatewayServiceFile(platform, env);
  if (os === "linux") {
    run("systemctl", ["--user", "disable", "--now", systemdUnitName(env)], env);
    fs.rmSync(file);
    run("systemctl", ["--user", "daemon-reload"], env);
  } else {
    spawnSync("launchctl", ["bootout", `gui/${process.getuid?.() ?? 0}/${launchdLabel(env)}`], { env });
    fs.rmSync(file);
  }
}
