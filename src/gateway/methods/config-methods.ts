import { Type } from "@sinclair/typebox";
import {
  configUiHints,
  lookupConfigSchema,
  ConfigError,
  OpenClawConfigSchema,
  patchConfigFile,
  readConfigFileSnapshot,
  replaceConfigFile,
  type ConfigEditResult,
} from "../../config/index.js";
import { invalidRequest } from "../protocol/errors.js";
import { configEditFailed, configEditOptions, configEditWritten } from "./config-edit-commit.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";

const Empty = Type.Object({}, { additionalProperties: false });
const MAX_RAW_CHARS = 1_000_000;

const Replace = Type.Object(
  {
    raw: Type.String({ maxLength: MAX_RAW_CHARS }),
    baseHash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);

/** How long `config.apply` waits before restarting, so its answer (and other clients' calls) get out first. */
const DEFAULT_RESTART_DELAY_MS = 2_000;

const Apply = Type.Object(
  {
    raw: Type.String({ maxLength: MAX_RAW_CHARS }),
    baseHash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    restartDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  },
  { additionalProperties: false },
);

const Patch = Type.Object(
  {
    raw: Type.String({ maxLength: MAX_RAW_CHARS }),
    baseHash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    replacePaths: Type.Optional(Type.Array(Type.String({ maxLength: 512 }), { maxItems: 256 })),
  },
  { additionalProperties: false },
);

function written(runtime: GatewayRuntime, result: ConfigEditResult) {
  return { ok: true, path: result.path, hash: result.hash, warnings: result.warnings, ...configEditWritten(runtime, result) };
}

/**
 * `config.get|set|apply|patch|schema|schema.lookup`: the config file read and edited over the protocol (the
 * Control UI's config view). Edits are compare-and-swap on the file's hash, validated before
 * anything is written, and applied at once by the same reload the file watcher runs.
 * See docs/configuration.md ("Editing over the gateway").
 */
export function registerConfigMethods(registry: MethodRegistry): void {
  registry.register({
    name: "config.get",
    scope: "operator.read",
    params: Empty,
    handler: (_params, { runtime, caller }) => {
      try {
        const snapshot = readConfigFileSnapshot(runtime.configFilePath(), process.env);
        // Paths describe the operator's machine: admins only, as in `status`.
        const path = caller.scopes.includes("operator.admin") ? snapshot.path : "";
        return { ...snapshot, path, appliedConfigHash: runtime.loadedConfig().hash };
      } catch (err) {
        if (err instanceof ConfigError) throw invalidRequest(err.message);
        throw err;
      }
    },
  });

  const edit = (write: () => ConfigEditResult, runtime: GatewayRuntime) => {
    let result: ConfigEditResult;
    try {
      result = write();
    } catch (err) {
      configEditFailed(err);
    }
    return written(runtime, result);
  };

  // set: write and apply live what can be (keys that need a restart are listed and wait).
  registry.register({
    name: "config.set",
    scope: "operator.admin",
    params: Replace,
    handler: (params, { runtime }) => edit(() => replaceConfigFile(runtime.configFilePath(), params.raw, configEditOptions(runtime, params.baseHash)), runtime),
  });

  // apply: the same write, then a restart when something changed that only a restart applies
  // (a restart-only key, or anything while hot reload is off). The answer says which comes.
  registry.register({
    name: "config.apply",
    scope: "operator.admin",
    params: Apply,
    handler: (params, { runtime }) => {
      const answer = edit(() => replaceConfigFile(runtime.configFilePath(), params.raw, configEditOptions(runtime, params.baseHash)), runtime);
      const waiting = answer.applied ? answer.restartRequiredPaths : answer.changedPaths;
      if (waiting.length === 0) return { ...answer, restart: { scheduled: false, reason: "nothing that changed needs a restart" } };
      const plan = runtime.requestRestart("config.apply", params.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS);
      return { ...answer, restart: { ...plan, paths: waiting } };
    },
  });

  registry.register({
    name: "config.patch",
    scope: "operator.admin",
    params: Patch,
    handler: (params, { runtime }) =>
      edit(() => patchConfigFile(runtime.configFilePath(), params.raw, { ...configEditOptions(runtime, params.baseHash), replacePaths: params.replacePaths }), runtime),
  });

  registry.register({
    name: "config.schema.lookup",
    scope: "operator.read",
    params: Type.Object({ path: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    handler: (params) => {
      const found = lookupConfigSchema(OpenClawConfigSchema, configUiHints(OpenClawConfigSchema), params.path);
      if (!found) throw invalidRequest(`config schema path not found: ${params.path}`, { code: "CONFIG_SCHEMA_PATH_NOT_FOUND" });
      return found;
    },
  });

  registry.register({
    name: "config.schema",
    scope: "operator.admin",
    params: Empty,
    handler: (_params, { runtime }) => ({
      schema: OpenClawConfigSchema,
      uiHints: configUiHints(OpenClawConfigSchema),
      version: runtime.version,
      generatedAt: new Date().toISOString(),
    }),
  });
}
