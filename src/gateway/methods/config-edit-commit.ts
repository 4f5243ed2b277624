import { ConfigBaseHashRequiredError, ConfigConflictError, ConfigError, type ConfigEditResult, type OpenClawConfig } from "../../config/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { ConfigReloadOutcome, GatewayRuntime } from "../runtime.js";

/** A config error as the wire shows it: the reason per key path, and the hash to re-read against. */
export function configEditFailed(err: unknown): never {
  if (err instanceof ConfigConflictError) {
    throw invalidRequest(err.message, { code: "CONFIG_CONFLICT", currentHash: err.currentHash });
  }
  if (err instanceof ConfigBaseHashRequiredError) throw invalidRequest(err.message, { code: "CONFIG_BASE_HASH_REQUIRED" });
  if (err instanceof ConfigError) throw invalidRequest(`config not saved: ${err.message}`, { code: "CONFIG_INVALID", issues: err.issues });
  throw err;
}

/** How every gateway edit of the config file is made: against the editor's hash, and refused when this gateway could not start on the result. */
export function configEditOptions(runtime: GatewayRuntime, baseHash: string | undefined) {
  return { baseHash, env: process.env, refuse: (config: OpenClawConfig) => runtime.startRefusals(config) };
}

/** After a write: applied at once by the same reload the file watcher runs, and announced as `config.changed`. */
export function configEditWritten(runtime: GatewayRuntime, result: ConfigEditResult): ConfigReloadOutcome {
  const outcome = runtime.reloadConfigNow();
  runtime.broadcast("config.changed", { path: result.path, hash: result.hash, ts: Date.now() });
  runtime.logger.info({ configPath: result.path, changedPaths: outcome.changedPaths }, "config written through the gateway");
  return outcome;
}
