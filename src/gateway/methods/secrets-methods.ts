import fs from "node:fs";
import { Type } from "@sinclair/typebox";
import { ConfigError, prefetchConfigSecrets, runExecReads } from "../../config/index.js";
import { unavailable } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const Empty = Type.Object({}, { additionalProperties: false });

/**
 * `secrets.reload`: reads the config's SecretRefs again (a rotated key in a file or a vault) and
 * applies what changed, as a config reload does; nothing is written. When a ref cannot be read,
 * the running config and its secrets stay, and the error names the key, the ref and why.
 */
export function registerSecretsMethods(registry: MethodRegistry): void {
  registry.register({
    name: "secrets.reload",
    scope: "operator.admin",
    params: Empty,
    handler: async (_params, { runtime }) => {
      const file = runtime.configFilePath();
      if (!fs.existsSync(file)) return { ok: true, warningCount: 0, applied: true, changedPaths: [], restartRequiredPaths: [] };
      try {
        // Exec resolvers run first without blocking; the reload then reads their fresh answers.
        const execReads = (await prefetchConfigSecrets(fs.readFileSync(file), file, process.env)) ?? runExecReads;
        const outcome = runtime.reloadConfigNow({ rereadSecrets: true, execReads });
        runtime.logger.info({ changedPaths: outcome.changedPaths }, "secrets reloaded");
        return { ok: true, warningCount: runtime.loadedConfig().warnings.length, ...outcome };
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        runtime.logger.error({ error: err.message }, "secrets.reload failed; keeping the running config");
        throw unavailable(`secrets.reload failed; the running config and its secrets stay in use:\n${err.message}`);
      }
    },
  });
}
