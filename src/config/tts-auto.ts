import type { RawOpenClawConfig } from "./schema/index.js";

/** The Auto-TTS modes this gateway speaks in: `always` (every final reply to a chat), `inbound` (only replies to a voice message), or `off`. */
export const AUTO_TTS_MODES = ["off", "always", "inbound"] as const;
export type AutoTtsMode = (typeof AUTO_TTS_MODES)[number];

/** Whether `value` is one of the modes spoken here. */
export function isAutoTtsMode(value: unknown): value is AutoTtsMode {
  return typeof value === "string" && (AUTO_TTS_MODES as readonly string[]).includes(value);
}

/** The config's Auto-TTS mode: `tts.auto`, else the legacy `tts.enabled: true` as `always`, else `off`. */
export function configuredAutoTts(config: RawOpenClawConfig): AutoTtsMode {
  const auto = config.tts?.auto;
  if (isAutoTtsMode(auto)) return auto;
  return config.tts?.enabled === true ? "always" : "off";
}
