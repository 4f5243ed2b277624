import fs from "node:fs";
import {
  ConfigConflictError,
  ConfigError,
  defaultConfigPathForWrite,
  hashConfigBytes,
  loadConfig,
  parseConfigText,
  patchConfigFile,
  resolveConfigPath,
  resolveStateDir,
  type OpenClawConfig,
} from "../../config/index.js";
import { listAgentConfigs } from "../../agents/agent-config.js";
import type { Binding } from "../../channels/routing/resolve-agent-route.js";
import { readLiveLock } from "../../gateway/state-lock.js";
import { CliError } from "../output.js";

/** The config an `agents` edit starts from: the loaded config (what the gateway runs) and the file as written (what the edit rewrites). */
export interface AgentsConfigFile {
  stateDir: string;
  /** The file written: the one in use, else the state dir's default. */
  file: string;
  config: OpenClawConfig;
  /** The file as written (no defaults, `${VAR}` and `$include` kept), `{}` when there is none. */
  raw: Record<string, unknown>;
  /** The hash of the bytes read: the write fails if the file changes meanwhile. */
  baseHash: string | undefined;
}

/**
 * Loads the config as every command does: a file that does not parse or does not validate throws
 * ConfigError (exit 78) and is never written. The raw file is read once, and its hash kept.
 */
export function readAgentsConfigFile(): AgentsConfigFile {
  const stateDir = resolveStateDir(process.env);
  const { config, path } = loadConfig({ stateDir, env: process.env });
  const file = path ?? resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  let bytes: Buffer | undefined;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new CliError(`cannot read the config file ${file}: ${(err as Error).message}`);
  }
  const parsed = bytes ? parseConfigText(bytes.toString("utf8"), file) : {};
  const raw = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { stateDir, file, config, raw, baseHash: bytes ? hashConfigBytes(bytes) : undefined };
}

/** The distinct agent ids the config runs (an id in both spellings is one agent). */
export function agentIds(file: AgentsConfigFile): string[] {
  return [...new Set(listAgentConfigs(file.config).map((a) => a.id))];
}

/** True when the config names no agent: the implicit `main` runs on the defaults. */
export function definesNoAgents(file: AgentsConfigFile): boolean {
  const agents = file.config.agents;
  return (agents?.list?.length ?? 0) === 0 && Object.keys(agents?.entries ?? {}).length === 0;
}

/**
 * The file's `bindings` list. One an `$include` supplies is not a list here: an edit would
 * replace the include, so it is refused.
 */
export function rawBindings(file: AgentsConfigFile): Binding[] {
  const bindings = file.raw.bindings;
  if (bindings === undefined) return [];
  if (!Array.isArray(bindings))
    throw new CliError(`bindings in ${file.file} is not a plain list (an $include?): edit the file that holds the bindings by hand. Config was not changed.`);
  return bindings as Binding[];
}

/** A merge patch of the config file and the lists it replaces whole. */
export interface ConfigFilePatch {
  patch: Record<string, unknown>;
  replacePaths: string[];
}

/**
 * Writes the patch through `config patch`'s writer: the whole result is validated first and the
 * file replaced atomically, against the hash read (a concurrent edit fails the write). With
 * `dryRun`, only checks it. An invalid result writes nothing: the error names the keys. Returns
 * the validation warnings.
 */
export function saveConfigPatch(file: AgentsConfigFile, { patch, replacePaths }: ConfigFilePatch, opts: { dryRun?: boolean } = {}): string[] {
  try {
    const result = patchConfigFile(file.file, JSON.stringify(patch), { baseHash: file.baseHash, env: process.env, replacePaths, dryRun: opts.dryRun });
    return result.warnings;
  } catch (err) {
    if (err instanceof ConfigConflictError) throw new CliError(`not saved: ${file.file} changed while this command ran; run it again. Config was not changed.`);
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}\nConfig was not changed.`);
    throw err;
  }
}

/**
 * What a gateway running on this state dir does with the saved change: `reloads` it at once
 * (`agents.*` and `bindings` apply without a restart), or not while `gateway.reload.mode` is `off`;
 * `none` when no gateway runs (its next start reads the file).
 */
export type RunningGateway = "none" | "reloads" | "reload-off";

export function runningGateway(file: AgentsConfigFile): RunningGateway {
  if (!readLiveLock(file.stateDir)) return "none";
  return file.config.gateway?.reload?.mode === "off" ? "reload-off" : "reloads";
}

/** The text lines saying how the running gateway takes the change (stdout) and what to do when it does not (stderr). */
export function printGatewayNote(state: RunningGateway): void {
  if (state === "reloads") process.stdout.write("The running gateway applies this at its config reload; no restart needed.\n");
  if (state === "reload-off") {
    process.stderr.write(
      "The running gateway does not reload its config (gateway.reload.mode: off): send it SIGHUP (kill -HUP <pid in gateway.lock>) or run openclaw gateway restart to apply this.\n",
    );
  }
}

export function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}
