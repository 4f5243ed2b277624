import type { RawOpenClawConfig } from "./schema/index.js";

/** Providers that transcribe without a models.providers entry (OpenAI's /audio/transcriptions wire). */
const BUILT_IN_TRANSCRIBERS = ["openai", "groq"];

/**
 * `tools.media.models` entries this gateway will not run, each said at load: entries for images
 * or video (only audio transcription is supported here), and audio entries naming a provider that
 * does not speak OpenAI's transcription endpoint.
 */
export function mediaModelWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  (config.tools?.media?.models ?? []).forEach((entry, index) => {
    const where = `tools.media.models[${index}]`;
    const forAudio = entry.capabilities ? entry.capabilities.includes("audio") : (entry.type ?? "provider") === "provider" && entry.provider === "groq";
    if (!forAudio) {
      warnings.push(
        `${where} is not used: it is not an audio entry (add "audio" to its capabilities to transcribe with it); image and video understanding are not supported by this gateway`,
      );
      return;
    }
    const provider = entry.type === "cli" ? undefined : entry.provider;
    const configured = provider ? config.models?.providers?.[provider] : undefined;
    if (provider && !BUILT_IN_TRANSCRIBERS.includes(provider) && (!configured || configured.api === "anthropic-messages")) {
      warnings.push(
        `${where} cannot transcribe: provider "${provider}" is not openai, groq or a models.providers entry with an openai-* api (only OpenAI's /audio/transcriptions is spoken here); it is skipped`,
      );
    }
  });
  return warnings;
}
