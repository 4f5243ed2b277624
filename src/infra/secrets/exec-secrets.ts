import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expandHome } from "../home-path.js";
import type { SecretProviderSettings } from "./secret-provider.js";
import { failAll, isJsonObject, secretValue, type SecretOutcome } from "./secret-value.js";

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Per-id error codes a resolver may send that are worth showing; anything else it says may quote a secret. */
const SHOWN_CODES = new Set(["NOT_FOUND", "AMBIGUOUS_DUPLICATE_KEY"]);

interface ExecRun {
  name: string;
  command: string;
  args: string[];
  input: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxOutputBytes: number;
  jsonOnly: boolean;
}

/** How a run ended, the same for the blocking and the awaited run. */
interface ExecEnd {
  /** "timeout", "overflow", or the spawn error's code. */
  failure?: string;
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
}

/**
 * Exec refs: the provider's resolver runs once for all its ids, directly (no shell), with only
 * `env` and the `passEnv` variables. It reads `{protocolVersion: 1, provider, ids}` on stdin and
 * answers `{protocolVersion: 1, values: {id: value}, errors?: {id: {code}}}` on stdout; with
 * `jsonOnly: false`, one id may take plain output. Its stderr is never shown: it may hold secrets.
 * This one blocks until the resolver ends (a CLI command, a start); the running gateway awaits
 * readExecSecretsAsync instead.
 */
export function readExecSecrets(alias: string, provider: SecretProviderSettings, ids: readonly string[], env: NodeJS.ProcessEnv): Map<string, SecretOutcome> {
  const run = planRun(alias, provider, ids, env);
  if ("problem" in run) return failAll(ids, run.problem);
  const result = spawnSync(run.command, run.args, {
    input: run.input,
    env: run.env,
    timeout: run.timeoutMs,
    maxBuffer: run.maxOutputBytes,
    killSignal: "SIGKILL",
    stdio: ["pipe", "pipe", "ignore"],
    encoding: "utf8",
  });
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  const failure = result.error ? (code === "ETIMEDOUT" ? "timeout" : code === "ENOBUFS" ? "overflow" : (code ?? result.error.message)) : undefined;
  return outcomes(run, ids, { failure, status: result.status, signal: result.signal, stdout: result.stdout ?? "" });
}

/** readExecSecrets without blocking: the resolver runs while the event loop serves everything else. */
export function readExecSecretsAsync(alias: string, provider: SecretProviderSettings, ids: readonly string[], env: NodeJS.ProcessEnv): Promise<Map<string, SecretOutcome>> {
  const run = planRun(alias, provider, ids, env);
  if ("problem" in run) return Promise.resolve(failAll(ids, run.problem));
  return new Promise((resolve) => {
    const child = spawn(run.command, run.args, { env: run.env, stdio: ["pipe", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let failure: string | undefined;
    const stop = (why: string) => {
      failure ??= why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop("timeout"), run.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > run.maxOutputBytes) return stop("overflow");
      chunks.push(chunk);
    });
    child.stdin.on("error", () => {}); // a resolver that exits without reading its input
    child.on("error", (err: NodeJS.ErrnoException) => {
      failure ??= err.code ?? err.message;
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve(outcomes(run, ids, { failure, status, signal, stdout: Buffer.concat(chunks).toString("utf8") }));
    });
    child.stdin.end(run.input);
  });
}

function planRun(alias: string, provider: SecretProviderSettings, ids: readonly string[], env: NodeJS.ProcessEnv): ExecRun | { problem: string } {
  const command = provider.command ?? "";
  const untrusted = untrustedCommand(command, provider.trustedDirs);
  if (untrusted) return { problem: untrusted };
  const childEnv: NodeJS.ProcessEnv = {};
  for (const name of provider.passEnv ?? []) if (env[name] !== undefined) childEnv[name] = env[name];
  Object.assign(childEnv, provider.env);
  return {
    name: `resolver ${command}`,
    command,
    args: provider.args ?? [],
    input: JSON.stringify({ protocolVersion: 1, provider: alias, ids }),
    env: childEnv,
    timeoutMs: provider.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxOutputBytes: provider.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    jsonOnly: provider.jsonOnly ?? true,
  };
}

function outcomes(run: ExecRun, ids: readonly string[], end: ExecEnd): Map<string, SecretOutcome> {
  if (end.failure === "timeout") return failAll(ids, `${run.name} did not answer within ${run.timeoutMs} ms (timeoutMs)`);
  if (end.failure === "overflow") return failAll(ids, `${run.name} wrote more than maxOutputBytes (${run.maxOutputBytes} bytes)`);
  if (end.failure) return failAll(ids, `${run.name} could not run (${end.failure})`);
  if (end.status !== 0) return failAll(ids, `${run.name} exited with ${end.status === null ? `signal ${end.signal}` : `code ${end.status}`}`);
  return parseAnswer(end.stdout, ids, run.name, run.jsonOnly);
}

function parseAnswer(stdout: string, ids: readonly string[], name: string, jsonOnly: boolean): Map<string, SecretOutcome> {
  let answer: unknown;
  try {
    answer = JSON.parse(stdout);
  } catch {
    if (!jsonOnly && ids.length === 1) return new Map([[ids[0]!, secretValue(stdout.replace(/\r?\n$/, ""))]]);
    return failAll(ids, `${name} did not answer with the JSON protocol ({"protocolVersion": 1, "values": {...}})`);
  }
  if (!isJsonObject(answer) || answer.protocolVersion !== 1 || !isJsonObject(answer.values)) {
    return failAll(ids, `${name} did not answer with protocolVersion 1 and a values object`);
  }
  const values = answer.values;
  const errors = isJsonObject(answer.errors) ? answer.errors : {};
  return new Map(
    ids.map((id): [string, SecretOutcome] => {
      if (Object.hasOwn(values, id)) return [id, secretValue(values[id])];
      const error = errors[id];
      const code = isJsonObject(error) && typeof error.code === "string" && SHOWN_CODES.has(error.code) ? ` (${error.code})` : "";
      return [id, { problem: `${name} gave no value for it${code}` }];
    }),
  );
}

/** Why the resolver may not run: a symlink, not this user's, writable by others, or outside `trustedDirs`. */
function untrustedCommand(command: string, trustedDirs: readonly string[] | undefined): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(command);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `resolver ${command} does not exist` : `cannot inspect resolver ${command} (${code ?? (err as Error).message})`;
  }
  if (stat.isSymbolicLink()) return `resolver ${command} is a symlink: configure the real path (realpath ${command})`;
  if (!stat.isFile()) return `resolver ${command} is not a regular file`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `resolver ${command} is owned by another user (uid ${stat.uid}); it must be this user's`;
  if ((stat.mode & 0o022) !== 0) return `resolver ${command} is writable by group or others (mode ${(stat.mode & 0o777).toString(8)}): chmod go-w ${command}`;
  if (trustedDirs) {
    const inside = trustedDirs.some((dir) => {
      const root = path.resolve(expandHome(dir, os.homedir()));
      return command.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
    });
    if (!inside) return `resolver ${command} is outside trustedDirs (${trustedDirs.join(", ")})`;
  }
  return undefined;
}
