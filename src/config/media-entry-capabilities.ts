import type { RawOpenClawConfig } from "./schema/index.js";

type MediaEntry = NonNullable<NonNullable<NonNullable<RawOpenClawConfig["tools"]>["media"]>["models"]>[number];

/** Providers that transcribe with no models.providers entry (OpenAI's /audio/transcriptions), in auto-detection order. */
export const BUILT_IN_TRANSCRIBERS = ["groq", "openai"] as const;

/** What a provider's entry is for when it lists no `capabilities` (OpenClaw's defaults for the providers spoken here). */
const DEFAULT_CAPABILITIES: Record<string, readonly ("image" | "audio")[]> = {
  groq: ["audio"],
  openai: ["image"],
  anthropic: ["image"],
};

/** The capabilities of a `tools.media.models` entry: its own list, else its provider's defaults (a command entry has none). */
export function mediaEntryCapabilities(entry: MediaEntry): readonly string[] {
  if (entry.capabilities) return entry.capabilities;
  if (entry.type === "cli" || !entry.provider) return [];
  return DEFAULT_CAPABILITIES[entry.provider] ?? [];
}
