import { type AutoTtsMode, configuredAutoTts, isAutoTtsMode, type OpenClawConfig } from "../../config/index.js";

/** Who chose the Auto-TTS mode in effect: the chat (`/tts on|off`), the gateway (`tts.enable`/`tts.disable`), or the config (`tts.auto`). */
export type AutoTtsSource = "chat" | "gateway" | "config";

/** The Auto-TTS mode a reply follows: the chat's own choice, else the gateway's, else the config's. */
export function effectiveAutoTts(config: OpenClawConfig, chatMode: unknown, gatewayMode: AutoTtsMode | undefined): { mode: AutoTtsMode; source: AutoTtsSource } {
  if (isAutoTtsMode(chatMode)) return { mode: chatMode, source: "chat" };
  if (gatewayMode) return { mode: gatewayMode, source: "gateway" };
  return { mode: configuredAutoTts(config), source: "config" };
}
