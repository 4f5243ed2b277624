import { defaultConfig } from "./defaults.js";
import { ConfigError } from "./errors.js";
import { isPlainObject } from "./key-path.js";
import { loadConfig, readConfigFile, type LoadedConfig } from "./load.js";
import { parseConfigText } from "./parse.js";
import { validateConfig } from "./validate.js";

export interface ClientConfig {
  loaded: LoadedConfig;
  /** Why the file as a whole was not used; absent when it is valid. */
  invalid?: ConfigError;
  /** What the command fell back to when the file is invalid. */
  fallback?: "gateway-section" | "defaults";
}

/**
 * The config for client commands (status, health, gateway call …), which need only where the
 * gateway listens and how to authenticate. A broken file must not lock the user out of the
 * gateway that still runs on its old config: when the file is invalid, its `gateway` section is
 * used if that section alone is valid, else the built-in defaults, and the error is handed back
 * for a warning. Server commands keep using `loadConfig`, which refuses an invalid file.
 */
export function loadConfigForClient(opts: { stateDir: string; env: NodeJS.ProcessEnv }): ClientConfig {
  try {
    return { loaded: loadConfig(opts) };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const filePath = err.filePath ?? null;
    const gatewayOnly = filePath ? gatewaySectionOf(filePath, opts.env) : undefined;
    const config = gatewayOnly ?? defaultConfig();
    return {
      loaded: { config, path: filePath, hash: null, warnings: [] },
      invalid: err,
      fallback: gatewayOnly ? "gateway-section" : "defaults",
    };
  }
}

function gatewaySectionOf(filePath: string, env: NodeJS.ProcessEnv) {
  try {
    const raw = parseConfigText(readConfigFile(filePath).toString("utf8"), filePath);
    if (!isPlainObject(raw) || !isPlainObject(raw.gateway)) return undefined;
    // `secrets` and `env` come along: the section's SecretRefs (the token) name their providers there.
    return validateConfig({ gateway: raw.gateway, ...(raw.secrets !== undefined && { secrets: raw.secrets }), ...(raw.env !== undefined && { env: raw.env }) }, env, { filePath })
      .config;
  } catch (err) {
    if (err instanceof ConfigError) return undefined;
    throw err;
  }
}
