import fs from "node:fs";
import path from "node:path";
import { ConfigError, expandIncludes, isSecretEntry, parseConfigText } from "../../config/index.js";
import { gatewayStatePaths } from "../../infra/paths.js";
import type { Finding } from "./finding.js";

function modeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

function permissionFinding(file: string, what: string, wanted: string): Finding | undefined {
  const mode = modeOf(file);
  if (mode === undefined || (mode & 0o077) === 0) return undefined;
  const world = (mode & 0o007) !== 0;
  return {
    id: "files.permissions",
    severity: world ? "critical" : "warn",
    title: `${what} ${file} is mode 0${mode.toString(8)}: ${world ? "every user" : "the group"} on this machine can read it`,
    fix: `chmod ${wanted} ${file} (or \`openclaw doctor --fix\`)`,
  };
}

/** The state dir, config (and the files its `$include`s read, as the load found them) and credential files: readable by this user only. */
export function permissionFindings(stateDir: string, configFile: string | null, includedFiles: readonly { path: string }[] = []): Finding[] {
  const paths = gatewayStatePaths(stateDir);
  const found = [permissionFinding(stateDir, "state dir", "700"), configFile ? permissionFinding(configFile, "config file", "600") : undefined];
  for (const included of includedFiles) found.push(permissionFinding(included.path, "included config file", "600"));
  if (fs.existsSync(paths.credentialsDir)) {
    found.push(permissionFinding(paths.credentialsDir, "credentials dir", "700"));
    for (const name of fs.readdirSync(paths.credentialsDir)) found.push(permissionFinding(path.join(paths.credentialsDir, name), "credential file", "600"));
  }
  return found.filter((f): f is Finding => f !== undefined);
}

/** The config file's data as written, its `$include`s read; undefined when it cannot be read (the doctor's to report). */
function readMergedConfig(configFile: string): unknown {
  let data: unknown;
  try {
    data = parseConfigText(fs.readFileSync(configFile, "utf8"), configFile);
  } catch {
    return undefined;
  }
  try {
    return expandIncludes(data, configFile, process.env).data;
  } catch (err) {
    if (err instanceof ConfigError) return data;
    throw err;
  }
}

/** Secrets written into the config file (or a file it includes) rather than referenced as ${VAR}, a SecretRef or a token file. */
export function literalSecretFindings(configFile: string | null): Finding[] {
  const data = configFile ? readMergedConfig(configFile) : undefined;
  if (data === undefined) return [];
  const keys: string[] = [];
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}[${i}]`));
    else if (value && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        const where = at ? `${at}.${key}` : key;
        if (typeof child === "string" && isSecretEntry(key, child)) keys.push(where);
        else walk(child, where);
      }
    }
  };
  walk(data, "");
  if (keys.length === 0) return [];
  return [
    {
      id: "config.literal-secrets",
      severity: "warn",
      title: `the config file holds ${keys.length} secret(s) in clear text: ${keys.join(", ")}; it ends up in backups and screen shares`,
      fix: 'reference environment variables instead ("${OPENCLAW_GATEWAY_TOKEN}", "${TELEGRAM_BOT_TOKEN}", …), a SecretRef ({ source: file, provider, id }; docs/configuration.md) or tokenFile',
    },
  ];
}
