import fs from "node:fs";
import { listAgentConfigs } from "../agents/agent-config.js";
import {
  ConfigError,
  defaultConfigPathForWrite,
  loadConfig,
  parseConfigText,
  resolveConfigPath,
  resolveStateDir,
  setConfigValueInFile,
  unsetConfigValueInFile,
  type OpenClawConfig,
} from "../config/index.js";
import { readLiveLock } from "../gateway/state-lock.js";
import { parseModelRef, resolveModelTarget, type ModelTarget } from "../models/index.js";
import { CliError } from "./output.js";

/** The config a `models` edit starts from: the loaded config (refs resolve against it) and the file's own data (what the edit rewrites). */
export interface ModelsConfigFile {
  stateDir: string;
  /** The file written: the one in use, else the state dir's default. */
  file: string;
  config: OpenClawConfig;
  /** The file as written (no defaults, `${VAR}` kept), `{}` when there is none. */
  raw: Record<string, unknown>;
}

/** Loads the config; an invalid one throws ConfigError (exit 78), as every command reading it does. */
export function readModelsConfig(): ModelsConfigFile {
  const stateDir = resolveStateDir(process.env);
  const { config, path } = loadConfig({ stateDir, env: process.env });
  const file = path ?? resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  const parsed = fs.existsSync(file) ? parseConfigText(fs.readFileSync(file, "utf8"), file) : {};
  return { stateDir, file, config, raw: isObject(parsed) ? parsed : {} };
}

/** `agents.defaults.<key>` as the file holds it. */
export function rawDefault(file: ModelsConfigFile, key: string): unknown {
  const agents = file.raw.agents;
  const defaults = isObject(agents) ? agents.defaults : undefined;
  return isObject(defaults) ? defaults[key] : undefined;
}

/** The model a command names, or a CliError saying why it cannot be written (nothing is changed). */
export function modelTargetOrFail(raw: string, config: OpenClawConfig): ModelTarget {
  const resolved = resolveModelTarget(raw, config);
  if (!resolved.ok) throw new CliError(`${resolved.message} Config was not changed.`);
  return resolved.target;
}

/** `provider/model` for a configured entry (an alias or a listed id resolved), or the entry itself when it does not parse. */
export function canonicalRef(entry: string, config: OpenClawConfig): string {
  const parsed = parseModelRef(entry, config);
  return parsed.ok ? `${parsed.parts.provider}/${parsed.parts.id}` : entry.trim();
}

/**
 * Sets (or with `undefined` removes) one key through `config set`'s writer: the whole result is
 * validated first and the file replaced atomically, so an invalid result writes nothing. Returns
 * the validation warnings.
 */
export function writeModelsKey(file: ModelsConfigFile, keyPath: string, value: unknown): string[] {
  try {
    const { warnings } = value === undefined ? unsetConfigValueInFile(file.file, keyPath, process.env) : setConfigValueInFile(file.file, keyPath, value, process.env);
    return warnings;
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}`);
    throw err;
  }
}

/**
 * What a saved edit prints, as OpenClaw's: `Updated config: <file>`, then the result; warnings on
 * stderr. A running gateway applies the change on its own (agents.* reloads without a restart)
 * unless its reload is off: then say how to apply it.
 */
export function reportSaved(file: ModelsConfigFile, result: string, warnings: readonly string[]): void {
  process.stdout.write(`Updated config: ${file.file}\n${result}\n`);
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  if (file.config.gateway?.reload?.mode === "off" && readLiveLock(file.stateDir)) {
    process.stderr.write(
      "The running gateway does not reload its config (gateway.reload.mode: off): send it SIGHUP (kill -HUP <pid in gateway.lock>) or run openclaw gateway restart to apply this.\n",
    );
  }
}

/** Agents whose own `model` replaces the defaults' model and fallbacks, so an edit of those does not reach them. */
function agentsWithOwnModel(config: OpenClawConfig): string[] {
  return listAgentConfigs(config)
    .filter((agent) => agent.model !== undefined)
    .map((agent) => agent.id);
}

export function ownModelWarning(config: OpenClawConfig): string[] {
  const agents = agentsWithOwnModel(config);
  if (agents.length === 0) return [];
  const names = agents.map((id) => `"${id}"`).join(", ");
  return [`agent${agents.length === 1 ? "" : "s"} ${names} ${agents.length === 1 ? "has its" : "have their"} own model in the config, which this does not change`];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
