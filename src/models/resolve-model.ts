import type { ModelProviderConfig, OpenClawConfig } from "../config/index.js";
import { apiKeyEnvVar, BUILTIN_PROVIDERS, EXAMPLE_MODEL_REF, isSupportedApi, MODEL_DEFAULTS, SUPPORTED_APIS, type BuiltinProvider } from "./builtin-providers.js";
import { configuredApiKey, unsetApiKeyVariable } from "./configured-api-key.js";
import { resolveContextWindow } from "./context-window.js";
import { localServiceSpecOf } from "./local-model-services.js";
import { urlWithoutCredentials } from "./model-errors.js";
import { ollamaBearerKey, ollamaKeyOptional } from "./ollama-auth.js";
import { defaultModelFallbacks, defaultModelRef, parseModelRef } from "./model-ref.js";
import type { ConfiguredModelInfo, ProviderModel, ResolveModelResult } from "./types.js";

type ProviderModelEntry = NonNullable<ModelProviderConfig["models"]>[number];

/**
 * A model ref (or the configured default) → everything a request needs: api, endpoint, key,
 * and the model's limits. Every failure is a message telling the user exactly what to set;
 * no message ever contains a key. With `requireKey: false` a model without a key resolves too
 * (failover takes its keys from the auth profiles).
 */
export function resolveModel(ref: string | undefined, config: OpenClawConfig, env: NodeJS.ProcessEnv, options: { requireKey?: boolean } = {}): ResolveModelResult {
  const wanted = ref?.trim() || defaultModelRef(config);
  if (!wanted) {
    return {
      ok: false,
      message: `No model configured. Set agents.defaults.model (e.g. "${EXAMPLE_MODEL_REF}") and ANTHROPIC_API_KEY, or add a provider under models.providers.`,
    };
  }
  const parsed = parseModelRef(wanted, config);
  if (!parsed.ok) return parsed;
  const { provider, id } = parsed.parts;
  const modelRef = `${provider}/${id}`;

  const configured = config.models?.providers?.[provider];
  const builtin = builtinFor(provider, config);
  if (!configured && !builtin) return { ok: false, message: unknownProviderMessage(provider, modelRef, config) };

  const api = configured?.api ?? builtin?.api ?? "openai-completions";
  if (!isSupportedApi(api)) {
    return {
      ok: false,
      message: `models.providers.${provider}.api "${api}" is not supported yet (model ${modelRef}). Use one of: ${SUPPORTED_APIS.join(", ")}.`,
    };
  }
  const baseUrl = nonEmpty(configured?.baseUrl) ?? builtin?.baseUrl;
  if (!baseUrl) {
    return { ok: false, message: `Provider "${provider}" has no endpoint (model ${modelRef}). Set models.providers.${provider}.baseUrl.` };
  }
  if (api === "ollama" && /\/v1\/?$/.test(baseUrl)) {
    const root = urlWithoutCredentials(baseUrl.replace(/\/v1\/?$/, ""));
    const implied = configured?.api === undefined ? ` (api "ollama" is the built-in ${provider} provider's)` : "";
    return {
      ok: false,
      message: `models.providers.${provider}.baseUrl ends in /v1, Ollama's OpenAI-compatible path, but the api is "ollama"${implied} (model ${modelRef}). Set baseUrl to the server's root, "${root}", or set models.providers.${provider}.api: "openai-completions" to keep /v1.`,
    };
  }
  const envVar = apiKeyEnvVar(provider);
  const optional = keyOptional(api, baseUrl);
  // A server that needs no key gets only one written for it, never <P>_API_KEY from the environment.
  const apiKey = keyToSend(api, configuredApiKey(config, provider)) ?? (optional ? undefined : keyToSend(api, nonEmpty(env[envVar])));
  if (!apiKey && options.requireKey !== false && !optional) {
    const unset = unsetApiKeyVariable(config, provider);
    return {
      ok: false,
      message: unset
        ? `No API key for provider "${provider}" (model ${modelRef}): ${unset}`
        : `No API key for provider "${provider}" (model ${modelRef}). Set ${envVar} in the environment, or models.providers.${provider}.apiKey in the config.`,
    };
  }

  const entry = findEntry(configured, id);
  const localService = localServiceSpecOf(provider, configured, { baseUrl, api, ...(apiKey ? { apiKey } : {}) });
  const model: ProviderModel = {
    ref: modelRef,
    provider,
    id,
    api,
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(configured?.headers ? { headers: { ...configured.headers } } : {}),
    ...capabilities(entry, resolveContextWindow(config, provider, id).tokens),
    ...(configured?.timeoutSeconds ? { timeoutSeconds: configured.timeoutSeconds } : {}),
    ...(configured?.firstByteTimeoutSeconds ? { firstByteTimeoutSeconds: configured.firstByteTimeoutSeconds } : {}),
    ...(configured?.idleTimeoutSeconds ? { idleTimeoutSeconds: configured.idleTimeoutSeconds } : {}),
    ...(entry?.params ? { params: entry.params } : {}),
    ...(entry?.contextTokens ? { contextTokens: entry.contextTokens } : {}),
    ...(optional ? { keyOptional: true as const } : {}),
    ...(localService ? { localService } : {}),
  };
  return { ok: true, model };
}

function keyToSend(api: string, key: string | undefined): string | undefined {
  return api === "ollama" ? ollamaBearerKey(key) : key;
}

function keyOptional(api: string, baseUrl: string): boolean {
  return api === "ollama" && ollamaKeyOptional(baseUrl);
}

/**
 * Every model the config names: each `models.providers.*.models[]` entry, then the default
 * model and its fallbacks, then `extraRefs` (an agent's own chain), each once. `available`
 * says whether a request could be made right now (known provider, supported api, a key present).
 */
export function listConfiguredModels(config: OpenClawConfig, env: NodeJS.ProcessEnv, extraRefs: readonly string[] = []): ConfiguredModelInfo[] {
  const rows: ConfiguredModelInfo[] = [];
  const seen = new Set<string>();
  const add = (provider: string, id: string) => {
    const ref = `${provider}/${id}`;
    if (seen.has(ref)) return;
    seen.add(ref);
    const entry = findEntry(config.models?.providers?.[provider], id);
    const resolved = resolveModel(ref, config, env);
    rows.push({
      ref,
      provider,
      id,
      ...(entry?.name ? { name: entry.name } : {}),
      ...capabilities(entry, resolveContextWindow(config, provider, id).tokens),
      available: resolved.ok,
      ...(resolved.ok ? { baseUrl: resolved.model.baseUrl } : {}),
    });
  };
  for (const [provider, settings] of Object.entries(config.models?.providers ?? {})) {
    for (const entry of settings.models ?? []) add(provider, entry.id);
  }
  const defaults = [defaultModelRef(config), ...defaultModelFallbacks(config), ...extraRefs];
  for (const ref of defaults) {
    if (!ref) continue;
    const parsed = parseModelRef(ref, config);
    if (parsed.ok) add(parsed.parts.provider, parsed.parts.id);
  }
  return rows;
}

// `models.mode: "replace"` means the config's providers are the only ones.
function builtinFor(provider: string, config: OpenClawConfig): BuiltinProvider | undefined {
  if (config.models?.mode === "replace") return undefined;
  return Object.hasOwn(BUILTIN_PROVIDERS, provider) ? BUILTIN_PROVIDERS[provider] : undefined;
}

/** The providers a model ref may name: the built-in ones (unless `models.mode: "replace"`) and the configured ones. */
export function knownModelProviders(config: OpenClawConfig): string[] {
  const known = [...(config.models?.mode === "replace" ? [] : Object.keys(BUILTIN_PROVIDERS)), ...Object.keys(config.models?.providers ?? {})];
  return [...new Set(known)];
}

function unknownProviderMessage(provider: string, modelRef: string, config: OpenClawConfig): string {
  const known = knownModelProviders(config);
  const choices = known.length > 0 ? ` Known providers: ${known.join(", ")}.` : "";
  return (
    `Unknown model provider "${provider}" (model ${modelRef}). ` + `Add it under models.providers.${provider} with baseUrl, api and apiKey, or pick another provider.${choices}`
  );
}

function findEntry(provider: ModelProviderConfig | undefined, id: string): ProviderModelEntry | undefined {
  return provider?.models?.find((m) => m.id === id);
}

function capabilities(entry: ProviderModelEntry | undefined, contextWindow: number): Pick<ConfiguredModelInfo, "contextWindow" | "maxTokens" | "reasoning" | "input"> {
  return {
    contextWindow,
    maxTokens: entry?.maxTokens ?? MODEL_DEFAULTS.maxTokens,
    reasoning: entry?.reasoning ?? MODEL_DEFAULTS.reasoning,
    input: entry?.input ? [...entry.input] : [...MODEL_DEFAULTS.input],
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
