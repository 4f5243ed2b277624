import {
  ConfigError,
  defaultConfigPathForWrite,
  getConfigValue,
  loadConfig,
  OpenClawConfigSchema,
  parseCliValue,
  redactConfig,
  resolveConfigPath,
  resolveStateDir,
  setConfigValueInFile,
  UNKNOWN_KEY_PREFIX,
  unsetConfigValueInFile,
} from "../config/index.js";
import { CliError, EXIT_CONFIG_INVALID, printJson } from "./output.js";

/** `openclaw config get <path>`: the effective value (defaults applied), secrets redacted. */
export function configGetCommand(keyPath: string, flags: { json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const loaded = loadConfig({ stateDir, env: process.env });
  // Redact the whole tree first: a leaf alone no longer says whether it is a secret.
  const { found, value } = getConfigValue(redactConfig(loaded.config, loaded.secretPaths), keyPath);
  if (!found) {
    if (flags.json) printJson({ error: `Config path not found: ${keyPath}` });
    else process.stderr.write(`Config path not found: ${keyPath}\n`);
    process.exitCode = 1;
    return;
  }
  if (flags.json || typeof value === "object") printJson(value);
  else process.stdout.write(`${String(value)}\n`);
}

/** `openclaw config set <path> <value>`: validated, atomic, comments kept in YAML files. */
export function configSetCommand(keyPath: string, rawValue: string, flags: { json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const file = resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  let warnings: string[];
  try {
    ({ warnings } = setConfigValueInFile(file, keyPath, parseCliValue(rawValue), process.env));
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}`);
    throw err;
  }
  reportEdit(`Updated ${keyPath} in ${file}`, { ok: true, path: keyPath, file }, warnings, flags);
}

/** `openclaw config unset <path>`: removes the key, validated and atomic like `config set`. */
export function configUnsetCommand(keyPath: string, flags: { json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const file = resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  let warnings: string[];
  try {
    ({ warnings } = unsetConfigValueInFile(file, keyPath, process.env));
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}`);
    throw err;
  }
  reportEdit(`Removed ${keyPath} from ${file}`, { ok: true, path: keyPath, file, removed: true }, warnings, flags);
}

// An edit that leaves an unknown key (a typo in the path, or one already in the file) says so.
function reportEdit(text: string, json: Record<string, unknown>, warnings: string[], flags: { json?: boolean }): void {
  if (flags.json) return printJson({ ...json, warnings });
  process.stdout.write(`${text}\n`);
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}

/**
 * `openclaw config validate`: exit 78 (invalid config) with every problem listed, or 0 with the
 * warnings. Unknown keys are warnings, as at start-up; `--strict` makes them errors.
 */
export function configValidateCommand(flags: { json?: boolean; strict?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  try {
    const loaded = loadConfig({ stateDir, env: process.env });
    const unknown = loaded.warnings.filter((w) => w.startsWith(UNKNOWN_KEY_PREFIX));
    if (flags.strict && unknown.length > 0) {
      const issues = unknown.map((message) => ({ path: /"([^"]*)"/.exec(message)?.[1] ?? "", message }));
      throw ConfigError.fromIssues(issues, loaded.path ?? undefined);
    }
    if (flags.json) return printJson({ ok: true, path: loaded.path, warnings: loaded.warnings });
    process.stdout.write(loaded.path ? `Config valid: ${loaded.path}\n` : "No config file; using built-in defaults\n");
    for (const w of loaded.warnings) process.stdout.write(`warning: ${w}\n`);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    if (flags.json) printJson({ ok: false, path: err.filePath ?? null, issues: err.issues, message: err.message });
    else process.stderr.write(`Config invalid${err.filePath ? ` (${err.filePath})` : ""}:\n${err.message}\n`);
    process.exitCode = EXIT_CONFIG_INVALID;
  }
}

export function configFileCommand(): void {
  const stateDir = resolveStateDir(process.env);
  process.stdout.write(`${resolveConfigPath(stateDir, process.env) ?? `${defaultConfigPathForWrite(stateDir)} (not created yet)`}\n`);
}

/** `openclaw config schema`: the JSON schema the config file is checked against (the gateway's `config.schema`), marked as draft-07 for editors. */
export function configSchemaCommand(): void {
  printJson({ $schema: "http://json-schema.org/draft-07/schema#", ...OpenClawConfigSchema });
}
