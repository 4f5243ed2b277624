import fs from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig, resolveConfigPath } from "../../config/index.js";
import { lockRefreshed, readLock } from "../../gateway/state-lock.js";
import { gatewayStatePaths } from "../../infra/paths.js";
import { isProcessAlive } from "../../infra/process-alive.js";
import type { DoctorCheck, DoctorContext } from "./check.js";

const MIN_NODE_MAJOR = 20;

export function checkNode(): DoctorCheck {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= MIN_NODE_MAJOR) return { id: "node", status: "ok", message: `Node ${process.versions.node}` };
  return { id: "node", status: "fail", message: `Node ${process.versions.node} is too old`, fix: `install Node ${MIN_NODE_MAJOR} or newer` };
}

/** Loads the config into the context (later checks use it) and reports each problem at its key. */
export function checkConfig(ctx: DoctorContext): DoctorCheck {
  const file = resolveConfigPath(ctx.stateDir, ctx.env);
  if (!file) {
    ctx.loaded = loadConfig({ stateDir: ctx.stateDir, env: ctx.env, path: null });
    return { id: "config", status: "warn", message: `no config file in ${ctx.stateDir}; built-in defaults are in use`, fix: "run `openclaw onboard` to write one" };
  }
  try {
    ctx.loaded = loadConfig({ stateDir: ctx.stateDir, env: ctx.env });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const where = err.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
    return {
      id: "config",
      status: "fail",
      message: `config ${file} is invalid: ${where}`,
      fix: `edit ${file} (or \`openclaw config set <key> <value>\`), then \`openclaw config validate\``,
    };
  }
  const warnings = ctx.loaded.warnings;
  if (warnings.length > 0)
    return { id: "config", status: "warn", message: `config ${file} is valid with ${warnings.length} warning(s): ${warnings.join("; ")}`, fix: "remove or correct the keys named" };
  return { id: "config", status: "ok", message: `config ${file} is valid` };
}

function modeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

const octal = (mode: number) => `0${mode.toString(8)}`;

/** A path that should be private: group/other bits set → fail, repaired with chmod under --fix. */
function privatePath(ctx: DoctorContext, id: string, file: string, wanted: number, what: string): DoctorCheck | undefined {
  const mode = modeOf(file);
  if (mode === undefined || (mode & 0o077) === 0) return undefined;
  const check: DoctorCheck = {
    id,
    status: "fail",
    message: `${what} ${file} is mode ${octal(mode)}: other users on this machine can ${mode & 0o044 ? "read" : "enter"} it`,
    fix: `chmod ${octal(wanted)} ${file}`,
  };
  if (!ctx.fix) return check;
  fs.chmodSync(file, wanted);
  return { ...check, status: "ok", fixed: `chmod ${octal(wanted)} ${file}` };
}

/** The state dir and everything holding credentials: private to this user. */
export function checkPermissions(ctx: DoctorContext): DoctorCheck[] {
  const paths = gatewayStatePaths(ctx.stateDir);
  if (!fs.existsSync(ctx.stateDir)) {
    const check: DoctorCheck = {
      id: "state-dir",
      status: "warn",
      message: `state dir ${ctx.stateDir} does not exist yet`,
      fix: "run `openclaw onboard` or start the gateway once",
    };
    if (!ctx.fix) return [check];
    fs.mkdirSync(ctx.stateDir, { recursive: true, mode: 0o700 });
    return [{ ...check, status: "ok", fixed: `created ${ctx.stateDir} (mode 0700)` }];
  }
  const found: DoctorCheck[] = [];
  const add = (check: DoctorCheck | undefined) => check && found.push(check);
  add(privatePath(ctx, "state-dir", ctx.stateDir, 0o700, "state dir"));
  const configFile = resolveConfigPath(ctx.stateDir, ctx.env);
  if (configFile) add(privatePath(ctx, "credentials", configFile, 0o600, "config file"));
  if (fs.existsSync(paths.credentialsDir)) {
    add(privatePath(ctx, "credentials", paths.credentialsDir, 0o700, "credentials dir"));
    for (const name of fs.readdirSync(paths.credentialsDir)) {
      const file = path.join(paths.credentialsDir, name);
      if (fs.statSync(file).isFile()) add(privatePath(ctx, "credentials", file, 0o600, "credential file"));
    }
  }
  if (!found.some((c) => c.id === "state-dir")) found.unshift({ id: "state-dir", status: "ok", message: `state dir ${ctx.stateDir} is private` });
  if (!found.some((c) => c.id === "credentials")) found.push({ id: "credentials", status: "ok", message: "config and credential files are private (0600)" });
  return found;
}

/** A lock or pid file whose process is gone: harmless to the gateway, confusing to `gateway status`. */
export function checkStaleFiles(ctx: DoctorContext): DoctorCheck {
  const paths = gatewayStatePaths(ctx.stateDir);
  const stale: string[] = [];
  const lock = readLock(ctx.stateDir);
  if (lock && !isProcessAlive(lock.pid)) stale.push(`${paths.lockFile} (pid ${lock.pid} is not running)`);
  else if (lock && !lockRefreshed(ctx.stateDir)) stale.push(`${paths.lockFile} (not refreshed for over 30 s: pid ${lock.pid} is no longer the gateway that wrote it)`);
  else if (!lock && fs.existsSync(paths.lockFile)) stale.push(`${paths.lockFile} (unreadable)`);
  let pid: number | undefined;
  try {
    pid = Number(fs.readFileSync(paths.pidFile, "utf8").trim());
  } catch {
    pid = undefined;
  }
  // The pid file names the gateway `gateway start` launched, which holds the lock once it runs: a
  // live process of that pid holding no live lock is another process that got the pid since.
  const liveLockPid = lock && isProcessAlive(lock.pid) && lockRefreshed(ctx.stateDir) ? lock.pid : undefined;
  if (pid !== undefined && !isProcessAlive(pid)) stale.push(`${paths.pidFile} (pid ${pid || "?"} is not running)`);
  else if (pid !== undefined && pid !== liveLockPid) stale.push(`${paths.pidFile} (pid ${pid} holds no live gateway lock: it is no longer the gateway \`gateway start\` launched)`);
  if (stale.length === 0) {
    return { id: "lock", status: "ok", message: lock ? `gateway running (pid ${lock.pid}, port ${lock.port})` : "no gateway running; no stale lock or pid file" };
  }
  const check: DoctorCheck = {
    id: "lock",
    status: "warn",
    message: `stale ${stale.join(" and ")}`,
    fix: "`openclaw doctor --fix` removes them (the gateway also reclaims a stale lock on start)",
  };
  if (!ctx.fix) return check;
  const removed = stale.map((entry) => entry.split(" (")[0]!);
  // The lock's directory (held by a live gateway, refreshed by it) goes with a dead holder's lock file.
  if (removed.includes(paths.lockFile) && fs.existsSync(paths.lockDir)) removed.push(paths.lockDir);
  for (const file of removed) fs.rmSync(file, { recursive: true, force: true });
  return { ...check, status: "ok", fixed: `removed ${removed.join(", ")}` };
}
