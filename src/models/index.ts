/**
 * Models: resolving a `provider/model` ref against config and env, and streaming a turn
 * from the provider behind it. The provider adapters (and their SDKs) are not re-exported
 * here on purpose: `createStreamModel` imports them lazily, so importing this module stays
 * cheap. Import `./anthropic-provider.js` / `./openai-completions-provider.js` directly to
 * use one adapter on its own.
 */
export { resolveModel, listConfiguredModels, knownModelProviders } from "./resolve-model.js";
export { resolveModelTarget, type ModelTarget } from "./model-target.js";
export { isLocalBaseUrl } from "./local-base-url.js";
export { parseModelRef, defaultModelRef, defaultModelFallbacks, type ModelRefParts } from "./model-ref.js";
export { apiKeyEnvVar, BUILTIN_PROVIDERS, MODEL_DEFAULTS, SUPPORTED_APIS } from "./builtin-providers.js";
export { configuredApiKey, usableApiKey } from "./configured-api-key.js";
export { createStreamModel, type StreamModel } from "./stream-model.js";
export { localModelServices, localServiceSpecOf } from "./local-model-services.js";
export { normalizeToolSchema } from "./tool-schema.js";
export { redactSecrets, urlWithoutCredentials } from "./model-errors.js";
export type { ClassifiedModelError, ConfiguredModelInfo, ProviderModel, ResolveModelResult } from "./types.js";
export { DEFAULT_CONTEXT_TOKENS, resolveContextWindow, type ContextWindowInfo, type ContextWindowSource } from "./context-window.js";
export { isContextOverflowText } from "./context-overflow.js";
export { probeProvider, type ProviderProbe } from "./provider-probe.js";
export { ollamaBearerKey, ollamaKeyOptional } from "./ollama-auth.js";
