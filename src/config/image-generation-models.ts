import type { RawOpenClawConfig } from "./schema/index.js";

/** The provider that generates images with nothing but its key: OpenAI's Images API. */
export const OPENAI_IMAGE_PROVIDER = "openai";

/** OpenClaw's default OpenAI image model: the one an OpenAI key alone sets up. */
export const DEFAULT_OPENAI_IMAGE_MODEL = "gpt-image-2";

/** `agents.defaults.mediaModels.image` as refs in the order they are tried: the primary, then the fallbacks. */
export function configuredImageModelRefs(config: RawOpenClawConfig): string[] {
  const image = config.agents?.defaults?.mediaModels?.image;
  if (typeof image === "string") return [image.trim()].filter(Boolean);
  return [image?.primary, ...(image?.fallbacks ?? [])].map((ref) => ref?.trim()).filter((ref): ref is string => Boolean(ref));
}

/** `provider/model` split at its first `/` (the model id may hold more), or undefined when it has no provider or no model. */
export function splitImageModelRef(ref: string): { provider: string; model: string } | undefined {
  const slash = ref.indexOf("/");
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

/**
 * Why `provider` cannot generate images here, or undefined when it speaks OpenAI's Images API:
 * `openai` itself (built in, unless `models.mode: replace` leaves it out and it has no entry),
 * or a `models.providers` entry whose api is an OpenAI one (or unset), such as a LiteLLM or
 * LocalAI server. Every other provider OpenClaw knows (Google, fal, MiniMax, xAI, …) speaks its
 * own API, which this gateway does not.
 */
export function imageProviderProblem(config: RawOpenClawConfig, provider: string): string | undefined {
  const configured = config.models?.providers?.[provider];
  if (configured) {
    if (configured.api === undefined || configured.api === "openai-completions" || configured.api === "openai-responses") return undefined;
    return `provider "${provider}" has api ${configured.api}, and only OpenAI's Images API is spoken here (openai, or a models.providers entry with an openai-* api)`;
  }
  if (provider === OPENAI_IMAGE_PROVIDER) {
    return config.models?.mode === "replace" ? 'models.mode is "replace" and models.providers has no openai entry' : undefined;
  }
  return `provider "${provider}" cannot generate images here: only OpenAI's Images API is spoken (openai, or a models.providers entry with an openai-* api)`;
}
