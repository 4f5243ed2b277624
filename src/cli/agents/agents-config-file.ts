import { ConfigConflictError, ConfigError, defaultConfigPathForWrite, loadConfig, patchConfigFile, resolveConfigPath, resolveStateDir } from "../../config/index.js";
import { readAgentsConfigFileAt, type AgentsConfigFile, type ConfigFilePatch } from "../../agents/roster/agents-file.js";
import { readLiveLock } from "../../gateway/state-lock.js";
import { CliError } from "../output.js";

/**
 * Loads the config as every command does: a file that does not parse or does not validate throws
 * ConfigError (exit 78) and is never written. The raw file is read once, and its hash kept.
 */
export function readAgentsConfigFile(): AgentsConfigFile {
  const stateDir = resolveStateDir(process.env);
  const { config, path } = loadConfig({ stateDir, env: process.env });
  return readAgentsConfigFileAt(stateDir, path ?? resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir), config);
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
