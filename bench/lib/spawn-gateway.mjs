// Spawning and observing one gateway process: free port, temp state dir, port/ready polling,
// RSS from /proc, SIGTERM shutdown timing, and cleanup of everything the bench started.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { now, sleep, StepError, withTimeout } from "./util.mjs";

export const HOST = "127.0.0.1";
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The built CLI: $BENCH_CLI_ENTRY if set (to bench another build), else package.json's
 * `bin.openclaw`, else dist/src/cli/main.js.
 */
export const CLI_ENTRY = resolveCliEntry();

function resolveCliEntry() {
  if (process.env.BENCH_CLI_ENTRY) return path.resolve(process.env.BENCH_CLI_ENTRY);
  try {
    const { bin } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    const entry = typeof bin === "string" ? bin : bin?.openclaw;
    if (typeof entry === "string") return path.join(REPO_ROOT, entry);
  } catch {
    // fall through to the default
  }
  return path.join(REPO_ROOT, "dist", "src", "cli", "main.js");
}

const POLL_INTERVAL_MS = 2;
/** pino numeric levels: 40 warn, 50 error, 60 fatal. */
const WARN_LEVEL = 40;
const MAX_ISSUES_PER_PROCESS = 20;
const MAX_TAIL_LINES = 30;

const liveGateways = new Set();
/** Every process's issues, in order; kept here so a failed run still reports them. */
export const gatewayIssues = [];
const tempDirs = new Set();

/** A port that was free a moment ago: bind port 0 on loopback, read it, close. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen({ port: 0, host: HOST, exclusive: true }, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function makeTempDir(label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `openclaw-bench-${label}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** Synchronous last-resort cleanup (signal handlers, watchdog): SIGKILL children, delete temp dirs. */
export function cleanupAllSync() {
  for (const gw of liveGateways) gw.killNow();
  for (const dir of tempDirs) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
  tempDirs.clear();
}

/** Repo-relative when inside the repo, absolute otherwise. */
export function displayPath(file) {
  const rel = path.relative(REPO_ROOT, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}

export function assertBuilt() {
  if (!fs.existsSync(CLI_ENTRY)) {
    throw new StepError("preflight", `${displayPath(CLI_ENTRY)} not found: run \`npm run build\` first`);
  }
}

/**
 * The environment the gateway sees: ours minus any OPENCLAW_* (so a developer's own config,
 * port or token cannot leak in) and NODE_OPTIONS, plus the bench's settings.
 * $BENCH_GATEWAY_NODE_OPTIONS becomes the gateway's NODE_OPTIONS (to compare heap policies).
 */
function gatewayEnv(extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("OPENCLAW_") || key === "NODE_OPTIONS") continue;
    env[key] = value;
  }
  if (process.env.BENCH_GATEWAY_NODE_OPTIONS) env.NODE_OPTIONS = process.env.BENCH_GATEWAY_NODE_OPTIONS;
  return { ...env, ...extra };
}

/**
 * Start `node <CLI_ENTRY> gateway run --port <port>` directly (no shell/npm, so the pid
 * is the gateway's own). `spawnedAt` is taken immediately before spawn().
 */
export function spawnGateway({ label, stateDir, port, token }) {
  const env = { OPENCLAW_STATE_DIR: stateDir, ...(token ? { OPENCLAW_GATEWAY_TOKEN: token } : {}) };
  const args = [...gatewayExecArgv(), CLI_ENTRY, "gateway", "run", "--port", String(port)];
  return spawnNode({ label, args, env, stateDir, port });
}

/**
 * $BENCH_GATEWAY_EXEC_ARGV (space-separated) goes before the CLI entry: flags NODE_OPTIONS
 * refuses, such as `--cpu-prof --cpu-prof-dir=/tmp/prof`, for profiling a bench run.
 */
function gatewayExecArgv() {
  const extra = (process.env.BENCH_GATEWAY_EXEC_ARGV ?? "").split(/\s+/).filter(Boolean);
  const own = extra.join(" ").replace(/_/g, "-");
  return [...DAEMON_EXEC_ARGV.filter((flag) => !own.includes(flag.split("=")[0])), ...extra];
}

/**
 * The V8 flags `openclaw gateway start` and the Docker image give the gateway (the list in
 * src/infra/daemon-node-flags.ts; a unit test keeps the two equal), so the bench measures it as
 * it runs. A flag of the same name in $BENCH_GATEWAY_EXEC_ARGV replaces it.
 */
export const DAEMON_EXEC_ARGV = ["--heap-growing-percent=30", "--max-semi-space-size=2", "--v8-pool-size=1"];

/**
 * The floor for spawnToPortOpenMs on this machine: a bare `node -e` that only listens on `port`.
 * Stop it with dispose() (it has no SIGTERM handler).
 */
export function spawnBareListener({ label, port }) {
  const code = `require("node:net").createServer().listen({ port: ${Number(port)}, host: "${HOST}" })`;
  return spawnNode({ label, args: ["-e", code], env: {}, port });
}

/** A bench script of its own (bench/floor.mjs) as a child process with the gateway's environment rules. */
export function spawnScript({ label, script, env, port, stateDir }) {
  return spawnNode({ label, args: [...gatewayExecArgv(), script], env, port, stateDir });
}

function spawnNode({ label, args, env, stateDir, port }) {
  const fullEnv = gatewayEnv(env);
  const spawnedAt = now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: fullEnv, stdio: ["ignore", "pipe", "pipe"] });
  return new GatewayProcess(child, { label, stateDir, port, spawnedAt });
}

export class GatewayProcess {
  constructor(child, { label, stateDir, port, spawnedAt }) {
    this.child = child;
    this.pid = child.pid;
    this.label = label;
    this.stateDir = stateDir;
    this.port = port;
    this.spawnedAt = spawnedAt;
    this.exitInfo = undefined;
    /** Warn/error/fatal log lines, stderr output and abnormal exits. */
    this.issues = [];
    this.levelCounts = {};
    this.tail = [];
    this.lineWaiters = [];
    /** First log entry seen for each distinct `msg`, so waiting for a line cannot miss it. */
    this.firstByMsg = new Map();
    liveGateways.add(this);

    this.exited = new Promise((resolve) => {
      const done = (code, signal, error) => {
        if (this.exitInfo) return;
        this.exitInfo = { code, signal, at: now(), ...(error ? { error: error.message } : {}) };
        liveGateways.delete(this);
        resolve(this.exitInfo);
      };
      child.once("exit", (code, signal) => done(code, signal));
      child.once("error", (err) => done(null, null, err));
    });

    readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => this.onStdoutLine(line));
    readline.createInterface({ input: child.stderr, crlfDelay: Infinity }).on("line", (line) => {
      if (line.trim()) this.addIssue({ stream: "stderr", text: line.slice(0, 300) });
      this.pushTail(`[stderr] ${line}`);
    });
  }

  get isRunning() {
    return this.exitInfo === undefined;
  }

  addIssue(issue) {
    if (this.issues.length >= MAX_ISSUES_PER_PROCESS) return;
    const entry = { gateway: this.label, ...issue };
    this.issues.push(entry);
    gatewayIssues.push(entry);
  }

  pushTail(line) {
    this.tail.push(line.slice(0, 400));
    if (this.tail.length > MAX_TAIL_LINES) this.tail.shift();
  }

  onStdoutLine(line) {
    this.pushTail(line);
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      // Plain-text lines (e.g. a generated-token notice) are not log entries.
      return;
    }
    if (typeof entry?.msg === "string" && !this.firstByMsg.has(entry.msg)) this.firstByMsg.set(entry.msg, entry);
    if (typeof entry?.level === "number") {
      this.levelCounts[entry.level] = (this.levelCounts[entry.level] ?? 0) + 1;
      if (entry.level >= WARN_LEVEL) {
        const { level, msg, time, pid, hostname, ...rest } = entry;
        this.addIssue({ stream: "stdout", level, msg, ...rest });
      }
    }
    for (const waiter of [...this.lineWaiters]) {
      if (waiter.msg === entry?.msg) {
        this.lineWaiters.splice(this.lineWaiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    }
  }

  describeExit() {
    const e = this.exitInfo;
    if (!e) return "still running";
    const how = e.error ? `spawn error ${e.error}` : e.signal ? `signal ${e.signal}` : `exit code ${e.code}`;
    // The line that says what went wrong, e.g. "Error: ..." from an uncaught exception.
    const cause = this.tail.find((l) => /^\[stderr\]\s*(\w*Error\b|error:)/i.test(l))?.replace(/^\[stderr\]\s*/, "");
    const tail = this.tail.slice(-8).join("\n    ");
    return `gateway exited (${how})${cause ? `: ${cause}` : ""}${tail ? `; last output:\n    ${tail}` : ""}`;
  }

  ensureRunning(step) {
    if (!this.isRunning) throw new StepError(step, this.describeExit());
  }

  /** Resolves with the first JSON log entry whose `msg` is `msg` (including ones already seen). */
  waitForLogEntry(msg, timeoutMs, step) {
    if (this.firstByMsg.has(msg)) return Promise.resolve(this.firstByMsg.get(msg));
    let waiter;
    const found = new Promise((resolve) => {
      waiter = { msg, resolve };
      this.lineWaiters.push(waiter);
    });
    return withTimeout(found, timeoutMs, step, () => {
      const i = this.lineWaiters.indexOf(waiter);
      if (i >= 0) this.lineWaiters.splice(i, 1);
    });
  }

  /** Milliseconds from spawn() to the first accepted TCP connect, polling every ~2 ms. */
  async waitForPortOpen(timeoutMs, step = `${this.label}: spawn → port open`) {
    const deadline = this.spawnedAt + timeoutMs;
    for (;;) {
      this.ensureRunning(step);
      const connectedAt = await tryConnect(this.port);
      if (connectedAt !== null) return connectedAt - this.spawnedAt;
      if (now() > deadline) throw new StepError(step, `port ${this.port} not open after ${timeoutMs} ms`);
      await sleep(POLL_INTERVAL_MS);
    }
  }

  /** Milliseconds from spawn() to the first `GET /readyz` answering 200. */
  async waitForReady(timeoutMs, step = `${this.label}: spawn → /readyz 200`) {
    const deadline = this.spawnedAt + timeoutMs;
    let lastStatus = "no answer";
    for (;;) {
      this.ensureRunning(step);
      const res = await httpGet(this.port, "/readyz");
      if (res.status === 200) return res.at - this.spawnedAt;
      lastStatus = res.status ? `HTTP ${res.status}` : res.error;
      if (now() > deadline) throw new StepError(step, `/readyz not 200 after ${timeoutMs} ms (last: ${lastStatus})`);
      await sleep(POLL_INTERVAL_MS);
    }
  }

  /** Resident set size of the gateway process (VmRSS from /proc/<pid>/status), in bytes. */
  rssBytes(step = `${this.label}: read RSS`) {
    this.ensureRunning(step);
    const status = fs.readFileSync(`/proc/${this.pid}/status`, "utf8");
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!m) throw new StepError(step, `no VmRSS in /proc/${this.pid}/status`);
    return Number(m[1]) * 1024;
  }

  /**
   * CPU time the gateway used so far (user + system, from /proc/<pid>/stat), in ms. Linux counts
   * it in clock ticks of 1/100 s (USER_HZ on x86 and arm64), so this is good to 10 ms.
   */
  cpuMs(step = `${this.label}: read CPU time`) {
    this.ensureRunning(step);
    return statCpuMs(`/proc/${this.pid}/stat`, step);
  }

  /**
   * CPU time of the process's main thread alone (its JavaScript, the main-thread parts of GC, and
   * the system calls it makes), in ms, as cpuMs. The rest of cpuMs is other threads: V8's worker
   * (optimizing compiles, concurrent marking and sweeping) and libuv's pool (file writes, fsync).
   */
  mainThreadCpuMs(step = `${this.label}: read main-thread CPU time`) {
    this.ensureRunning(step);
    return statCpuMs(`/proc/${this.pid}/task/${this.pid}/stat`, step);
  }

  /** The lock file's JSON, or undefined when missing/unreadable. */
  readLock() {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.stateDir, "gateway.lock"), "utf8"));
    } catch {
      return undefined;
    }
  }

  /** SIGTERM and wait for exit; returns milliseconds from the signal to the exit event. */
  async stop(timeoutMs = 5000, step = `${this.label}: SIGTERM → exit`) {
    this.ensureRunning(step);
    const sentAt = now();
    this.child.kill("SIGTERM");
    const info = await withTimeout(this.exited, timeoutMs, step, () => this.killNow());
    const problems = [];
    if (info.signal === "SIGTERM") problems.push("killed by SIGTERM's default action (no SIGTERM handler installed yet), so no graceful shutdown");
    else if (info.code !== 0) problems.push(`exited with ${info.signal ? `signal ${info.signal}` : `code ${info.code}`} after SIGTERM`);
    if (this.stateDir && fs.existsSync(path.join(this.stateDir, "gateway.lock"))) problems.push("gateway.lock left behind");
    if (problems.length) this.addIssue({ stream: "exit", text: problems.join("; ") });
    return info.at - sentAt;
  }

  killNow() {
    if (this.isRunning) {
      try {
        this.child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  }

  /** For `finally`: make sure the process is gone and its state dir removed. */
  async dispose() {
    if (this.isRunning) {
      this.killNow();
      await withTimeout(this.exited, 3000, `${this.label}: wait for SIGKILLed gateway`).catch(() => {});
    }
    if (this.stateDir) removeTempDir(this.stateDir);
  }
}

/** One TCP connect attempt; resolves with the time of the connect, or null on refusal. */
function tryConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    const finish = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => finish(null));
    socket.once("connect", () => finish(now()));
    socket.once("error", () => finish(null));
  });
}

/** One GET without keep-alive; resolves with {status, at} or {error}. */
function httpGet(port, urlPath) {
  return new Promise((resolve) => {
    const req = http.get({ host: HOST, port, path: urlPath, agent: false, timeout: 1000 }, (res) => {
      const at = now();
      res.resume();
      res.once("end", () => resolve({ status: res.statusCode, at }));
      res.once("error", (err) => resolve({ error: err.message }));
    });
    req.once("timeout", () => req.destroy(new Error("request timed out")));
    req.once("error", (err) => resolve({ error: err.code ?? err.message }));
  });
}

/** utime + stime of a /proc stat file, in ms (clock ticks of 1/100 s: USER_HZ on x86 and arm64). */
function statCpuMs(file, step) {
  const stat = fs.readFileSync(file, "utf8");
  // Fields after the parenthesized command name (which may hold spaces): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new StepError(step, `unexpected ${file}`);
  return ticks * 10;
}
