import type { RawOpenClawConfig } from "./schema/index.js";

/** The speech provider `tts.provider` defaults to, and the one whose key alone sets TTS up. */
export const OPENAI_TTS_PROVIDER = "openai";
/** OpenClaw's defaults for OpenAI's speech endpoint. */
export const DEFAULT_OPENAI_TTS_MODEL = "gpt-4o-mini-tts";
export const DEFAULT_OPENAI_TTS_VOICE = "coral";
/** One speech request's limit when neither the call nor `tts.timeoutMs` gives one. */
export const DEFAULT_TTS_TIMEOUT_MS = 30_000;
/** The longest text spoken when `tts.maxTextLength` is unset; longer text is refused. */
export const DEFAULT_TTS_MAX_TEXT_LENGTH = 4096;

/** `tts.provider`, else openai. */
export function configuredTtsProvider(config: RawOpenClawConfig): string {
  return config.tts?.provider?.trim() || OPENAI_TTS_PROVIDER;
}

/**
 * Why `provider` cannot speak here, or undefined when it speaks OpenAI's `/audio/speech`:
 * `openai` itself (unless `models.mode: replace` leaves it out and it has no entry), or a
 * `models.providers` entry whose api is an OpenAI one (or unset), such as DeepInfra or a local
 * Kokoro server. OpenClaw's other speech providers (ElevenLabs, Microsoft, Azure, Google, …)
 * each speak their own API, which this gateway does not.
 */
export function ttsProviderProblem(config: RawOpenClawConfig, provider: string): string | undefined {
  const configured = config.models?.providers?.[provider];
  if (configured) {
    if (configured.api === undefined || configured.api === "openai-completions" || configured.api === "openai-responses") return undefined;
    return `provider "${provider}" has api ${configured.api}, and only OpenAI's /audio/speech is spoken here (openai, or a models.providers entry with an openai-* api)`;
  }
  if (provider === OPENAI_TTS_PROVIDER) {
    return config.models?.mode === "replace" ? 'models.mode is "replace" and models.providers has no openai entry' : undefined;
  }
  return `speech provider "${provider}" is not supported by this gateway: only OpenAI's /audio/speech is spoken (openai, or a models.providers entry with an openai-* api)`;
}
