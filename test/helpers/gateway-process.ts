import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The package's bin (the CommonJS entry). OPENCLAW_TEST_CLI lets a private build (e.g. `tsc --outDir .build-x` → .build-x/src/cli/main.js) be tested while dist/ is rebuilt.
export const CLI = process.env.OPENCLAW_TEST_CLI ?? fileURLToPath(new URL("../../dist/bin/openclaw.cjs", import.meta.url));

export function makeTempDir(prefix = "openclaw-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The environment of a test process: no OPENCLAW_* leaking in from the developer's shell. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCLAW_")) env[k] = v;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface GatewayProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  httpUrl: string;
  stateDir: string;
  token: string | undefined;
  output(): string;
  waitForOutput(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Send a signal and resolve with the exit code (or signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
  exited: Promise<number | string | null>;
}

export interface StartOptions {
  stateDir?: string;
  token?: string | null;
  args?: string[];
  env?: Record<string, string | undefined>;
  /** Write this config file into the state dir before start. */
  configFile?: { name: string; content: string };
  /** Another copy of the bin to run (default `CLI`), e.g. one beside a node_modules missing a package. */
  cli?: string;
}

/** Spawn `openclaw gateway run --port 0` and wait for its "gateway listening" line. */
export async function startGateway(opts: StartOptions = {}): Promise<GatewayProcess> {
  const stateDir = opts.stateDir ?? makeTempDir();
  if (opts.configFile) fs.writeFileSync(path.join(stateDir, opts.configFile.name), opts.configFile.content);
  const token = opts.token === null ? undefined : (opts.token ?? `test-token-${Math.random().toString(36).slice(2)}`);
  const child = spawnCli(
    ["gateway", "run", "--port", "0", ...(opts.args ?? [])],
    {
      OPENCLAW_STATE_DIR: stateDir,
      OPENCLAW_GATEWAY_TOKEN: token,
      ...opts.env,
    },
    opts.cli,
  );
  const listening = await child.waitForOutput(/^.*"msg":"gateway listening".*$/m, 15_000).catch((err) => {
    child.proc.kill("SIGKILL");
    throw new Error(`${(err as Error).message}\n--- gateway output ---\n${child.output()}`);
  });
  const port = Number(/"port":(\d+)/.exec(listening)![1]);
  return {
    ...child,
    port,
    url: `ws://127.0.0.1:${port}`,
    httpUrl: `http://127.0.0.1:${port}`,
    stateDir,
    token,
  };
}

export interface CliProcess {
  proc: ChildProcess;
  output(): string;
  waitForOutput(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
  exited: Promise<number | string | null>;
}

/** `node`: the Node that runs it (another version's binary), by default this one. */
export function spawnCli(args: string[], env: Record<string, string | undefined>, cli = CLI, node = process.execPath): CliProcess {
  const proc = spawn(node, [cli, ...args], { env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  const exited = new Promise<number | string | null>((resolve) => {
    proc.on("exit", (code, signal) => {
      resolve(code ?? signal);
      for (const w of waiters) w();
    });
  });
  const waitForOutput = (pattern: RegExp | string, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = typeof pattern === "string" ? (out.includes(pattern) ? pattern : null) : pattern.exec(out)?.[0];
        if (m) {
          cleanup();
          resolve(m);
        } else if (proc.exitCode !== null || proc.signalCode !== null) {
          cleanup();
          reject(new Error(`process exited before printing ${pattern}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${pattern}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    proc,
    output: () => out,
    waitForOutput,
    exited,
    stop: async (signal = "SIGTERM") => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** Run a CLI command to completion. */
export async function runCli(args: string[], env: Record<string, string | undefined>, timeoutMs = 20_000, node = process.execPath) {
  const child = spawnCli(args, env, CLI, node);
  const timer = setTimeout(() => child.proc.kill("SIGKILL"), timeoutMs);
  const code = await child.exited;
  clearTimeout(timer);
  return { code, output: child.output() };
}
