import { BUILT_IN_TRANSCRIBERS, mediaEntryCapabilities } from "./media-entry-capabilities.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * `tools.media.models` entries this gateway will not run, each said at load: entries for none of
 * audio and image (video understanding is not supported here), and audio entries naming a
 * provider that does not speak OpenAI's transcription endpoint.
 */
export function mediaModelWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  (config.tools?.media?.models ?? []).forEach((entry, index) => {
    const where = `tools.media.models[${index}]`;
    const capabilities = mediaEntryCapabilities(entry);
    if (!capabilities.includes("audio") && !capabilities.includes("image")) {
      warnings.push(`${where} is not used: it is for neither audio nor images (set its capabilities); video understanding is not supported by this gateway`);
      return;
    }
    const provider = entry.type === "cli" ? undefined : entry.provider;
    const configured = provider ? config.models?.providers?.[provider] : undefined;
    if (
      capabilities.includes("audio") &&
      provider &&
      !(BUILT_IN_TRANSCRIBERS as readonly string[]).includes(provider) &&
      (!configured || configured.api === "anthropic-messages")
    ) {
      warnings.push(
        `${where} cannot transcribe: provider "${provider}" is not openai, groq or a models.providers entry with an openai-* api (only OpenAI's /audio/transcriptions is spoken here); it is skipped for audio`,
      );
    }
  });
  return warnings;
}
