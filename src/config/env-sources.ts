import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

/**
 * Where the gateway's environment comes from besides the process's own, in OpenClaw's order, each
 * filling only variables still unset (nothing ever overrides one already there): the state dir's
 * `.env`, then the config's `env.vars`, then, when asked, the variables a login shell sets.
 */

const MAX_DOTENV_BYTES = 1024 * 1024;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Sets the variables of `<stateDir>/.env` that `env` lacks; a problem reading it is a warning, never fatal. */
export function loadStateDotEnv(stateDir: string, env: NodeJS.ProcessEnv): { applied: string[]; warning?: string } {
  const file = path.join(stateDir, ".env");
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return { applied: [], warning: `${file} is not a regular file; its variables were not read` };
    if (stat.size > MAX_DOTENV_BYTES) return { applied: [], warning: `${file} is larger than 1 MiB; its variables were not read` };
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { applied: [] };
    return { applied: [], warning: `cannot read ${file} (${(err as Error).message}); its variables were not read` };
  }
  const entries = Object.entries(parseEnv(text)).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { applied: fillMissing(env, entries) };
}

/** `env.vars` from the config: each one `env` lacks. */
export function applyConfigEnvVars(vars: Readonly<Record<string, string>> | undefined, env: NodeJS.ProcessEnv): string[] {
  return vars ? fillMissing(env, Object.entries(vars)) : [];
}

/** `env` with `env.vars` filled in where it has no value, for `${VAR}` substitution (`env` itself unchanged). */
export function withConfigEnvVars(vars: Readonly<Record<string, string>> | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!vars || Object.keys(vars).length === 0) return env;
  const merged: NodeJS.ProcessEnv = { ...env };
  fillMissing(merged, Object.entries(vars));
  return merged;
}

/** Sets each entry `env` lacks (valid variable names only); the names set. */
export function fillMissing(env: NodeJS.ProcessEnv, entries: [string, string][]): string[] {
  const applied: string[] = [];
  for (const [name, value] of entries) {
    if (!VARIABLE_NAME.test(name) || env[name] !== undefined) continue;
    env[name] = value;
    applied.push(name);
  }
  return applied;
}
