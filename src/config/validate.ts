import { Check } from "@sinclair/typebox/value";
import { checkCrossFieldRules } from "./cross-field-rules.js";
import { applyDefaults } from "./defaults.js";
import { substituteEnvVars } from "./env-substitution.js";
import { withConfigEnvVars } from "./env-sources.js";
import { applyExecMode } from "./exec-mode.js";
import { ConfigError } from "./errors.js";
import { collectSchemaIssues } from "./issue-messages.js";
import { aliasWarnings } from "./alias-warnings.js";
import { expandIncludes, hasIncludes, type IncludedFile } from "./includes.js";
import { isPlainObject } from "./key-path.js";
import { OpenClawConfigSchema, type RawOpenClawConfig } from "./schema/index.js";
import type { OpenClawConfig } from "./types.js";
import { stripUnknownKeys } from "./unknown-keys.js";
import { moveLegacyKeys } from "./legacy-keys.js";
import { telegramAllowEntryWarnings } from "./telegram-allow-entries.js";
import { accessGroupWarnings } from "./access-group-warnings.js";
import { hookMappingWarnings } from "./hook-mapping-checks.js";
import { bindingWarnings } from "./binding-warnings.js";
import { unknownChannelKeyWarnings } from "./channel-keyed-warnings.js";
import { controlUiOriginWarnings } from "./control-ui-origin-warnings.js";
import { dependentKeyWarnings } from "./dependent-key-warnings.js";
import { otelWarnings } from "./otel-warnings.js";
import { webSearchWarnings } from "./web-search-warnings.js";
import { xaiToolWarnings } from "./xai-tool-warnings.js";
import { resolveSecretRefs } from "./secrets/resolve-secret-refs.js";
import type { ExecSecretReads } from "./secrets/exec-reads.js";
import { mediaModelWarnings } from "./media-model-warnings.js";
import { imageGenerationWarnings } from "./image-generation-warnings.js";
import { ttsWarnings } from "./tts-warnings.js";
import { httpFileTypeWarnings } from "./http-file-types.js";
import { chatKeyWarnings } from "./chat-key-warnings.js";
import { defaultAccountWarnings } from "./default-account-warnings.js";

export interface ValidatedConfig {
  config: OpenClawConfig;
  warnings: string[];
  /** Key paths whose value was read through a SecretRef. */
  secretPaths: string[];
  /** The files `$include`s read, when `filePath` was given. */
  includedFiles: IncludedFile[];
}

/**
 * Parsed file contents → runnable config. Order matters: `$include`s are read first (relative to
 * `filePath`), then unknown keys are dropped (so
 * a typo never produces a second, confusing missing-variable warning), then ${VAR}s are
 * expanded, then SecretRefs are read, then the shape is checked, then cross-key rules, then defaults.
 * Throws ConfigError listing every problem; warnings never stop a load.
 */
export interface ValidateOptions {
  /** The file the data came from: `$include`s are relative to it. */
  filePath?: string;
  /** How exec SecretRef providers are read (default: run the resolver). */
  execReads?: ExecSecretReads;
}

export function validateConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env, opts: ValidateOptions = {}): ValidatedConfig {
  if (!isPlainObject(raw)) throw new ConfigError("config root must be an object");
  let includedFiles: IncludedFile[] = [];
  if (hasIncludes(raw)) {
    if (!opts.filePath) throw new ConfigError("$include needs a config file to be relative to; this config has none");
    const expanded = expandIncludes(raw, opts.filePath, env);
    if (!isPlainObject(expanded.data)) throw new ConfigError("config root must be an object (the root $include holds something else)");
    raw = expanded.data;
    includedFiles = expanded.files;
  }
  const warnings: string[] = [];
  const known = stripUnknownKeys(OpenClawConfigSchema, moveLegacyKeys(raw as Record<string, unknown>, warnings), warnings);
  // `${VAR}` may name a variable `env.vars` sets, as in OpenClaw (the process's own value wins).
  const vars = (known as { env?: { vars?: unknown } }).env?.vars;
  const variables = withConfigEnvVars(isPlainObject(vars) ? stringValues(vars) : undefined, env);
  const substituted = substituteEnvVars(known, variables, warnings) as Record<string, unknown>;
  const secrets = resolveSecretRefs(substituted, variables, opts.execReads);
  if (secrets.issues.length > 0) throw ConfigError.fromIssues(secrets.issues);
  const expanded = secrets.config;

  // Checked by walking the schema, not compiled: a config is checked once per start or reload,
  // and compiling the schema (tens of ms, before the port can open) costs far more than one walk.
  if (!Check(OpenClawConfigSchema, expanded)) {
    throw ConfigError.fromIssues(collectSchemaIssues(OpenClawConfigSchema, expanded));
  }
  const typed = applyExecMode(expanded as RawOpenClawConfig, warnings);
  const ruleIssues = checkCrossFieldRules(typed);
  if (ruleIssues.length > 0) throw ConfigError.fromIssues(ruleIssues);
  warnings.push(
    ...telegramAllowEntryWarnings(typed.channels),
    ...accessGroupWarnings(typed),
    ...chatKeyWarnings(typed.channels),
    ...dependentKeyWarnings(typed),
    ...otelWarnings(typed, env),
    ...webSearchWarnings(typed, env),
    ...xaiToolWarnings(typed, env),
    ...mediaModelWarnings(typed),
    ...imageGenerationWarnings(typed, variables),
    ...ttsWarnings(typed, variables),
    ...httpFileTypeWarnings(typed),
    ...controlUiOriginWarnings(typed),
    ...bindingWarnings(typed),
    ...unknownChannelKeyWarnings(typed),
    ...defaultAccountWarnings(typed, env),
    ...hookMappingWarnings(typed),
    ...aliasWarnings(typed),
  );

  return { config: applyDefaults(typed), warnings, secretPaths: secrets.resolvedPaths, includedFiles };
}

/** The string entries of `env.vars` (a value of another type is the validator's to refuse). */
function stringValues(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
