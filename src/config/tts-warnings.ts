import { isEnvReference } from "./env-substitution.js";
import type { RawOpenClawConfig } from "./schema/index.js";
import { configuredAutoTts } from "./tts-auto.js";
import { configuredTtsProvider, OPENAI_TTS_PROVIDER, ttsProviderProblem } from "./tts-provider.js";

/**
 * What in the `tts` block will not speak, said at load: a provider that cannot run here (then the
 * tts tool, /tts audio and tts.convert are not offered), `openai` without its key, and each
 * `tts.providers.<id>` block other than the chosen provider's (OpenClaw tries them as fallbacks;
 * this gateway speaks through one provider only). Without a `tts` block there is nothing to say.
 */
export function ttsWarnings(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  if (!config.tts) return [];
  const provider = configuredTtsProvider(config);
  const warnings: string[] = [];
  // With Auto-TTS on, a provider that cannot speak also leaves every reply text only.
  const consequence = configuredAutoTts(config) === "off" ? "the tts tool is not offered" : "the tts tool is not offered and replies are not spoken (tts.auto)";
  const problem = ttsProviderProblem(config, provider);
  if (problem) warnings.push(`tts.provider: ${problem}: ${consequence}`);
  else if (provider === OPENAI_TTS_PROVIDER && !hasOpenAiKey(config, env)) {
    warnings.push(`tts: no API key for openai (set tts.providers.openai.apiKey, models.providers.openai.apiKey or OPENAI_API_KEY in the gateway's environment): ${consequence}`);
  }
  for (const id of Object.keys(config.tts.providers ?? {})) {
    if (id === provider) continue;
    const why = ttsProviderProblem(config, id);
    warnings.push(
      why
        ? `tts.providers.${id} is not used: ${why}`
        : `tts.providers.${id} is not used: only tts.provider's block ("${provider}") speaks; falling back to another speech provider is not supported by this gateway`,
    );
  }
  return warnings;
}

function hasOpenAiKey(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): boolean {
  const usable = (key: string | undefined) => Boolean(key?.trim() && !isEnvReference(key.trim()));
  return usable(config.tts?.providers?.[OPENAI_TTS_PROVIDER]?.apiKey) || usable(config.models?.providers?.[OPENAI_TTS_PROVIDER]?.apiKey) || Boolean(env.OPENAI_API_KEY?.trim());
}
