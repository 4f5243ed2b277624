import {
  ConfigError, defaultConfigPathForWrite, getConfigValue, loadConfig, parseCliValue, redactConfig,
  resolveConfigPath, resolveStateDir, setConfigValueInFile,
} from "../config/index.js";
import { CliError, printJson } from "./output.js";

/** `openclaw config get <path>`: the effective value (defaults applied), secrets redacted. */
export function configGetCommand(keyPath: string, flags: { json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const loaded = loadConfig({ stateDir, env: process.env });
  // Redact the whole tree first: a leaf alone no longer says whether it is a secret.
  const { found, value } = getConfigValue(redactConfig(loaded.config), keyPath);
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
  try {
    setConfigValueInFile(file, keyPath, parseCliValue(rawValue), process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}`);
    throw err;
  }
  if (flags.json) printJson({ ok: true, path: keyPath, file });
  else process.stdout.write(`Updated ${keyPath} in ${file}\n`);
}

/** `openclaw config validate`: exit 1 with every problem listed, or 0 with the warnings. */
export function configValidateCommand(flags: { json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  try {
    const loaded = loadConfig({ stateDir, env: process.env });
    if (flags.json) return printJson({ ok: true, path: loaded.path, warnings: loaded.warnings });
    process.stdout.write(loaded.path ? `Config valid: ${loaded.path}\n` : "No config file; using built-in defaults\n");
    for (const w of loaded.warnings) process.stdout.write(`warning: ${w}\n`);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    if (flags.json) printJson({ ok: false, path: err.filePath ?? null, issues: err.issues, message: err.message });
    else process.stderr.write(`Config invalid:\n${err.message}\n`);
    process.exitCode = 1;
  }
}

export function configFileCommand(): void {
  const stateDir = resolveStateDir(process.env);
  process.stdout.write(`${resolveConfigPath(stateDir, process.env) ?? `${defaultConfigPathForWrite(stateDir)} (not created yet)`}\n`);
}
