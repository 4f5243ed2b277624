import type { GatewayToolHost } from "../agents/types.js";
import { configUiHints, lookupConfigSchema, OpenClawConfigSchema, readConfigFileSnapshot } from "../config/index.js";
import type { GatewayRuntime } from "./runtime.js";

/**
 * The gateway tool's reads, as the `config.get` and `config.schema.lookup` methods answer them:
 * the file's snapshot (secrets redacted) with the hash of the config now applied, and one key's
 * schema node.
 */
export function createGatewayToolHost(runtime: () => GatewayRuntime): GatewayToolHost {
  return {
    configSnapshot: () => ({ ...readConfigFileSnapshot(runtime().configFilePath(), process.env), appliedConfigHash: runtime().loadedConfig().hash }),
    schemaLookup: (path) => lookupConfigSchema(OpenClawConfigSchema, configUiHints(OpenClawConfigSchema), path),
  };
}
