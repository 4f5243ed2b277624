import fs from "node:fs";
import path from "node:path";
import { hashConfigBytes } from "./config-hash.js";
import { defaultConfig } from "./defaults.js";
import { ConfigError } from "./errors.js";
import { isPlainObject } from "./key-path.js";
import { parseConfigText } from "./parse.js";
import type { RuntimeOverrides } from "./runtime-overrides.js";
import { existingConfigCandidates, resolveConfigPath } from "./paths.js";
import type { IncludedFile } from "./includes.js";
import { prefetchExecReads, recordingExecReads, type ExecSecretReads } from "./secrets/exec-reads.js";
import type { OpenClawConfig } from "./types.js";
import { validateConfig } from "./validate.js";

export interface LoadedConfig {
  /** Validated, ${VAR}-substituted, defaults applied. */
  config: OpenClawConfig;
  /** The file that was read; null when none exists and defaults are in use. */
  path: string | null;
  /** sha256 (hex) of the file's bytes; null when there is no file. */
  hash: string | null;
  warnings: string[];
  /** The files its `$include`s read (a change to one is a config change); absent or empty without includes. */
  includedFiles?: IncludedFile[];
  /** Key paths whose value was read through a SecretRef (hidden by views whatever the key is called). */
  secretPaths?: string[];
}

export { hashConfigBytes } from "./config-hash.js";

/** What a load read: the file's hash and those of the files its `$include`s read. Equal signatures, equal sources. */
export function configSignature(loaded: Pick<LoadedConfig, "hash" | "includedFiles">): string {
  return [loaded.hash, ...(loaded.includedFiles ?? []).map((file) => `${file.path}:${file.hash}`)].join("\n");
}

/** Reads the file's bytes; ConfigError (not a raw ENOENT) when it cannot be read. */
export function readConfigFile(filePath: string): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ConfigError(`config file not found: ${filePath}`, { filePath });
    }
    throw new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`, { filePath });
  }
  if (!stat.isFile()) throw new ConfigError(`config path is not a regular file: ${filePath}`, { filePath });
  try {
    return fs.readFileSync(filePath);
  } catch (err) {
    throw new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`, { filePath });
  }
}

/**
 * Parses and validates bytes already read from `filePath` (shared with the watcher); `execReads` as
 * validateConfig's; `overrides` (`/debug set`) are laid over the parsed content before validation.
 */
export function loadConfigFromBytes(bytes: Buffer, filePath: string, env: NodeJS.ProcessEnv, execReads?: ExecSecretReads, overrides?: RuntimeOverrides): LoadedConfig {
  const parsed = parseConfigText(bytes.toString("utf8"), filePath);
  try {
    const raw = overrides && overrides.size > 0 ? overrides.applyTo(isPlainObject(parsed) ? parsed : {}) : parsed;
    const { config, warnings, includedFiles, secretPaths } = validateConfig(raw, env, { filePath, execReads });
    return { config, path: filePath, hash: hashConfigBytes(bytes), warnings, includedFiles, secretPaths };
  } catch (err) {
    throw err instanceof ConfigError ? err.withFilePath(filePath) : err;
  }
}

// Two config files side by side is almost always a leftover; say which one won.
function shadowedFileWarnings(stateDir: string, chosen: string): string[] {
  const others = existingConfigCandidates(stateDir).filter((candidate) => candidate !== chosen);
  return others.map((other) => `config file ${other} is ignored because ${path.basename(chosen)} takes precedence`);
}

/**
 * Finds, reads and validates the config. `path` undefined → resolve it (env, then the
 * state dir); null → no file, defaults only; a string → that file, which must exist.
 * Synchronous so start-up code stays linear. `overrides` as loadConfigFromBytes's (over `{}` when
 * there is no file). Throws ConfigError.
 */
export function loadConfig(opts: { stateDir: string; env?: NodeJS.ProcessEnv; path?: string | null; overrides?: RuntimeOverrides }): LoadedConfig {
  const env = opts.env ?? process.env;
  const filePath = opts.path === undefined ? resolveConfigPath(opts.stateDir, env) : opts.path;
  if (filePath === null) {
    if (!opts.overrides || opts.overrides.size === 0) return { config: defaultConfig(), path: null, hash: null, warnings: [] };
    const { config, warnings } = validateConfig(opts.overrides.applyTo({}), env);
    return { config, path: null, hash: null, warnings };
  }

  const loaded = loadConfigFromBytes(readConfigFile(filePath), filePath, env, undefined, opts.overrides);
  if (opts.path === undefined && !env.OPENCLAW_CONFIG_PATH?.trim()) {
    loaded.warnings.unshift(...shadowedFileWarnings(opts.stateDir, filePath));
  }
  return loaded;
}

/**
 * The exec SecretRef reads a load of these bytes makes, run now without blocking the event loop:
 * the running gateway awaits this before a reload's loadConfigFromBytes, which then reads the
 * answers instead of running the resolvers while everything else waits. Bytes that do not parse
 * or refs that are wrong read nothing here; the load that follows reports them.
 */
export async function prefetchConfigSecrets(bytes: Buffer, filePath: string, env: NodeJS.ProcessEnv): Promise<ExecSecretReads | undefined> {
  const recording = recordingExecReads();
  try {
    validateConfig(parseConfigText(bytes.toString("utf8"), filePath), env, { filePath, execReads: recording.reads });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
  }
  return recording.requests.length > 0 ? prefetchExecReads(recording.requests, env) : undefined;
}
