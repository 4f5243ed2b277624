/**
 * The configuration module: where the file lives, how it is parsed, validated, defaulted,
 * edited and watched. Everything outside src/config uses only what is exported here.
 */
export { ConfigError, type ConfigIssue } from "./errors.js";
export type {
  AgentDefaultsConfig,
  AgentKeyedEntry,
  AgentListEntry,
  GatewayConfig,
  HeartbeatVisibility,
  ModelProviderConfig,
  OpenClawConfig,
} from "./types.js";
export { AGENT_ID_DESCRIPTION, AGENT_ID_PATTERN, OpenClawConfigSchema, type RawOpenClawConfig } from "./schema/index.js";
export { agentReferences, type AgentReference } from "./agent-references.js";
export { perConfig } from "./per-config.js";
export { defaultConfigPathForWrite, existingConfigCandidates, resolveConfigPath, resolveStateDir } from "./paths.js";
export { configSignature, hashConfigBytes, loadConfig, loadConfigFromBytes, prefetchConfigSecrets, type LoadedConfig } from "./load.js";
export { answeredExecReads, runExecReads, type ExecSecretReads } from "./secrets/exec-reads.js";
export { loadConfigForClient, type ClientConfig } from "./client-config.js";
export { parseConfigText } from "./parse.js";
export { validateConfig } from "./validate.js";
export { DEFAULT_GATEWAY_PORT } from "./default-port.js";
export { DEFAULT_MAX_DISK_BYTES, defaultConfig } from "./defaults.js";
export { redactConfig, REDACTED } from "./redact.js";
export { parseCliValue, setConfigValueInFile, unsetConfigValueInFile } from "./set-value.js";
export { formatKeyPath, getConfigValue, parseKeyPath } from "./key-path.js";
export { UNKNOWN_KEY_PREFIX } from "./unknown-keys.js";
export { diffConfigPaths, restartRequiredPaths } from "./diff.js";
export { RuntimeOverrides, type RuntimeOverride } from "./runtime-overrides.js";
export { watchConfig, type ConfigChange, type ConfigWatchHandle, type ConfigWatchOptions } from "./watch.js";
export { configFileFormat, readConfigFileSnapshot, type ConfigFileFormat, type ConfigFileSnapshot } from "./config-snapshot.js";
export { ConfigBaseHashRequiredError, ConfigConflictError, patchConfigFile, replaceConfigFile, type ConfigEditResult, type ConfigPatchOptions } from "./config-file-edit.js";
export { configUiHints, type ConfigUiHint } from "./ui-hints.js";
export { lookupConfigSchema, type ConfigSchemaLookup, type ConfigSchemaLookupChild, type ReloadKind } from "./schema-lookup.js";
export { isSecretEntry } from "./redact.js";
export { isEnvReference } from "./env-substitution.js";
export { configuredImageModelRefs, DEFAULT_OPENAI_IMAGE_MODEL, imageProviderProblem, OPENAI_IMAGE_PROVIDER, splitImageModelRef } from "./image-generation-models.js";
export {
  configuredTtsProvider,
  DEFAULT_OPENAI_TTS_MODEL,
  DEFAULT_OPENAI_TTS_VOICE,
  DEFAULT_TTS_MAX_TEXT_LENGTH,
  DEFAULT_TTS_TIMEOUT_MS,
  OPENAI_TTS_PROVIDER,
  ttsProviderProblem,
} from "./tts-provider.js";
export { TTS_RESPONSE_FORMATS } from "./schema/tts.js";
export { AUTO_TTS_MODES, type AutoTtsMode, configuredAutoTts, isAutoTtsMode } from "./tts-auto.js";
export { expandIncludes, type IncludedFile } from "./includes.js";
export { secretRefValues } from "./secrets/resolve-secret-refs.js";
