import { spawnSync } from "node:child_process";
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

/**
 * Exec refs: the provider's resolver runs once for all its ids, directly (no shell), with only
 * `env` and the `passEnv` variables. It reads `{protocolVersion: 1, provider, ids}` on stdin and
 * answers `{protocolVersion: 1, values: {id: value}, errors?: {id: {code}}}` on stdout; with
 * `jsonOnly: false`, one id may take plain output. Its stderr is never shown: it may hold secrets.
 */
export function readExecSecrets(alias: string, provider: SecretProviderSettings, ids: readonly string[], env: NodeJS.ProcessEnv): Map<string, SecretOutcome> {
  const command = provider.command ?? "";
  const untrusted = untrustedCommand(command, provider.trustedDirs);
  if (untrusted) return failAll(ids, untrusted);
  const timeoutMs = provider.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = provider.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const childEnv: NodeJS.ProcessEnv = {};
  for (const name of provider.passEnv ?? []) if (env[name] !== undefined) childEnv[name] = env[name];
  Object.assign(childEnv, provider.env);
  const run = spawnSync(command, provider.args ?? [], {
    input: JSON.stringify({ protocolVersion: 1, provider: alias, ids }),
    env: childEnv,
    timeout: timeoutMs,
    maxBuffer: maxOutputBytes,
    killSignal: "SIGKILL",
    stdio: ["pipe", "pipe", "ignore"],
    encoding: "utf8",
  });
  const name = `resolver ${command}`;
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    if (code === "ETIMEDOUT") return failAll(ids, `${name} did not answer within ${timeoutMs} ms (timeoutMs)`);
    if (code === "ENOBUFS") return failAll(ids, `${name} wrote more than maxOutputBytes (${maxOutputBytes} bytes)`);
    return failAll(ids, `${name} could not run (${code ?? run.error.message})`);
  }
  if (run.status !== 0) return failAll(ids, `${name} exited with ${run.status === null ? `signal ${run.signal}` : `code ${run.status}`}`);
  return parseAnswer(run.stdout, ids, name, provider.jsonOnly ?? true);
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
