import { isEnvReference } from "./env-substitution.js";
import { configuredImageModelRefs, imageProviderProblem, OPENAI_IMAGE_PROVIDER, splitImageModelRef } from "./image-generation-models.js";
import type { RawOpenClawConfig } from "./schema/index.js";

const WHERE = "agents.defaults.mediaModels.image";

/**
 * The image models `agents.defaults.mediaModels.image` names that image_generate will skip, each
 * said at load with why: a ref without a provider, a provider that does not speak OpenAI's Images
 * API (OpenClaw's Google, fal, … image providers are not supported here), `openai` without its
 * key. When none is left, the tool is not offered, and that is said too.
 */
export function imageGenerationWarnings(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  const refs = configuredImageModelRefs(config);
  const warnings = refs.flatMap((ref) => {
    const problem = refProblem(config, env, ref);
    return problem ? [`${WHERE}: "${ref}" is skipped: ${problem}`] : [];
  });
  if (refs.length > 0 && warnings.length === refs.length) warnings.push(`${WHERE} names no model that can run here: image_generate is not offered`);
  return warnings;
}

function refProblem(config: RawOpenClawConfig, env: NodeJS.ProcessEnv, ref: string): string | undefined {
  const parts = splitImageModelRef(ref);
  if (!parts) return 'it is not a "provider/model" ref (e.g. "openai/gpt-image-2")';
  const providerProblem = imageProviderProblem(config, parts.provider);
  if (providerProblem) return providerProblem;
  const configured = config.models?.providers?.[parts.provider];
  if (parts.provider === OPENAI_IMAGE_PROVIDER) {
    const key = configured?.apiKey?.trim();
    const hasKey = (key && !isEnvReference(key)) || Boolean(env.OPENAI_API_KEY?.trim());
    return hasKey ? undefined : "no API key for openai (set models.providers.openai.apiKey or OPENAI_API_KEY in the gateway's environment)";
  }
  return configured?.baseUrl ? undefined : `models.providers.${parts.provider} has no baseUrl`;
}
