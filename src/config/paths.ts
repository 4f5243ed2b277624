import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** File names looked for in the state dir, in order of preference. */
export const CONFIG_FILE_NAMES = ["openclaw.yaml", "openclaw.yml", "openclaw.json", "openclaw.json5"] as const;

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** $HOME (trimmed), else the account's home directory. */
export function homeDir(env: NodeJS.ProcessEnv): string {
  return envValue(env, "HOME") ?? os.homedir();
}

/** Expands a leading "~" and makes the path absolute (relative to the working directory). */
export function expandUserPath(input: string, env: NodeJS.ProcessEnv = process.env): string {
  let expanded = input;
  if (input === "~") expanded = homeDir(env);
  else if (input.startsWith("~/") || input.startsWith("~\\")) expanded = path.join(homeDir(env), input.slice(2));
  return path.resolve(expanded);
}

/** $OPENCLAW_STATE_DIR, else $OPENCLAW_HOME/.openclaw, else ~/.openclaw. Never creates it. */
export function resolveStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = envValue(env, "OPENCLAW_STATE_DIR");
  if (explicit) return expandUserPath(explicit, env);
  return profileStateDir("default", env);
}

/** A profile name names a directory beside ~/.openclaw: letters, digits, `_` and `-`, starting with a letter or digit, at most 64. */
export const PROFILE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/**
 * The state dir a profile owns: `<home>/.openclaw-<name>`, `<home>/.openclaw` for `default`
 * (any case), where home is $OPENCLAW_HOME, else ~. The name must match PROFILE_NAME_PATTERN.
 */
export function profileStateDir(profile: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = envValue(env, "OPENCLAW_HOME");
  const base = home ? expandUserPath(home, env) : homeDir(env);
  return path.join(base, profile.toLowerCase() === "default" ? ".openclaw" : `.openclaw-${profile}`);
}

function isRegularFile(filePath: string): boolean {
  try {
    return fs.statSync(filePath).isFile();
  } catch {
    return false;
  }
}

/** Every config file present in the state dir, most preferred first. */
export function existingConfigCandidates(stateDir: string): string[] {
  return CONFIG_FILE_NAMES.map((name) => path.join(stateDir, name)).filter(isRegularFile);
}

/**
 * $OPENCLAW_CONFIG_PATH when set (even if the file is missing, so that loading reports it),
 * else the first existing openclaw.{yaml,yml,json,json5} in the state dir, else null.
 */
export function resolveConfigPath(stateDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const explicit = envValue(env, "OPENCLAW_CONFIG_PATH");
  if (explicit) return expandUserPath(explicit, env);
  return existingConfigCandidates(stateDir)[0] ?? null;
}

/** Where `config set` creates the file when none exists yet. */
export function defaultConfigPathForWrite(stateDir: string): string {
  return path.join(stateDir, CONFIG_FILE_NAMES[0]);
}

export function isYamlPath(filePath: string): boolean {
  return /\.ya?ml$/i.test(filePath);
}
