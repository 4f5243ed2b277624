import {
  configuredImageModelRefs,
  DEFAULT_OPENAI_IMAGE_MODEL,
  imageProviderProblem,
  OPENAI_IMAGE_PROVIDER,
  type OpenClawConfig,
  splitImageModelRef,
} from "../../../config/index.js";
import { apiKeyEnvVar, BUILTIN_PROVIDERS, usableApiKey } from "../../../models/index.js";
import type { ImageGenerationHost, ImageModelCandidate } from "../../types.js";

/** One call's limit on the provider when neither the call nor `agents.defaults.mediaModels.image.timeoutMs` gives one. */
export const IMAGE_GENERATE_DEFAULT_TIMEOUT_MS = 180_000;

/** image_generate's host for this config, or why there is none (then image_generate is not offered). */
export type ImageGenerationSetup = { host: ImageGenerationHost; problem?: undefined } | { host?: undefined; problem: string };

/**
 * The image models image_generate tries, as OpenClaw picks them: the configured primary and
 * fallbacks (`agents.defaults.mediaModels.image`), else, with none configured, OpenAI's default
 * model when an OpenAI key is set. Only providers that speak OpenAI's Images API run; the others
 * stay in the list as failures naming why. Without one usable model there is no host.
 */
export function imageGenerationSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): ImageGenerationSetup {
  const refs = configuredImageModelRefs(config);
  const candidates = (refs.length > 0 ? refs : [`${OPENAI_IMAGE_PROVIDER}/${DEFAULT_OPENAI_IMAGE_MODEL}`]).map((ref) => imageModelCandidate(ref, config, env));
  const usable = candidates.find((c) => c.kind === "provider");
  if (!usable) {
    return {
      problem:
        refs.length > 0
          ? `no model agents.defaults.mediaModels.image names can run here (${candidates.map((c) => `${c.ref}: ${c.kind === "unusable" ? c.reason : ""}`).join("; ")})`
          : "no image-generation provider is set up: set agents.defaults.mediaModels.image, or an OpenAI key (models.providers.openai.apiKey or OPENAI_API_KEY)",
    };
  }
  const image = config.agents.defaults.mediaModels?.image;
  return {
    host: {
      candidates,
      timeoutMs: (typeof image === "object" ? image.timeoutMs : undefined) ?? IMAGE_GENERATE_DEFAULT_TIMEOUT_MS,
      candidateFor: (ref) => imageModelCandidate(ref.includes("/") ? ref : `${usable.provider}/${ref}`, config, env),
    },
  };
}

/**
 * One `provider/model` as image_generate would call it: the provider's `models.providers` entry
 * (its baseUrl, apiKey and headers) else OpenAI's built-in endpoint, the key from the entry or
 * `<PROVIDER>_API_KEY`, as `tools.media` transcription resolves them. `openai` needs its key; a
 * server of your own (a models.providers entry) may take none.
 */
export function imageModelCandidate(ref: string, config: OpenClawConfig, env: NodeJS.ProcessEnv): ImageModelCandidate {
  const parts = splitImageModelRef(ref);
  if (!parts) return { kind: "unusable", ref, reason: 'not a "provider/model" ref (e.g. "openai/gpt-image-2")' };
  const { provider, model } = parts;
  const problem = imageProviderProblem(config, provider);
  if (problem) return { kind: "unusable", ref, reason: problem };
  const configured = config.models?.providers?.[provider];
  const baseUrl = configured?.baseUrl ?? (provider === OPENAI_IMAGE_PROVIDER ? BUILTIN_PROVIDERS.openai!.baseUrl : undefined);
  if (!baseUrl) return { kind: "unusable", ref, reason: `models.providers.${provider} has no baseUrl` };
  const envVar = apiKeyEnvVar(provider);
  const apiKey = usableApiKey(configured?.apiKey) ?? (env[envVar]?.trim() || undefined);
  if (provider === OPENAI_IMAGE_PROVIDER && !apiKey) {
    return { kind: "unusable", ref, reason: `no API key for ${provider}: set models.providers.${provider}.apiKey or ${envVar} in the gateway's environment`, missingKey: true };
  }
  return { kind: "provider", ref, provider, model, baseUrl, ...(apiKey ? { apiKey } : {}), ...(configured?.headers ? { headers: configured.headers } : {}) };
}

const setups = new WeakMap<OpenClawConfig, ImageGenerationSetup>();

/** The setup for a loaded config, worked out once per config (a reload brings a new one): every turn asks. */
export function cachedImageGenerationSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): ImageGenerationSetup {
  let setup = setups.get(config);
  if (!setup) setups.set(config, (setup = imageGenerationSetup(config, env)));
  return setup;
}
