import type { OpenClawConfig } from "../../config/index.js";
import { DEFAULT_BOT_LOOP_SETTINGS, type BotLoopSettings } from "./bot-loop-guard.js";

type BotLoopOverrides = { enabled?: boolean; maxEventsPerWindow?: number; windowSeconds?: number; cooldownSeconds?: number };

/** Bot loop protection for one account: OpenClaw's defaults, then `channels.defaults`, the channel's and the account's, key by key. */
export function botLoopSettingsFor(config: OpenClawConfig, channel: string, accountId: string): BotLoopSettings {
  const block = (
    config.channels as Record<string, { botLoopProtection?: BotLoopOverrides; accounts?: Record<string, { botLoopProtection?: BotLoopOverrides }> } | undefined> | undefined
  )?.[channel];
  return {
    ...DEFAULT_BOT_LOOP_SETTINGS,
    ...config.channels?.defaults?.botLoopProtection,
    ...block?.botLoopProtection,
    ...block?.accounts?.[accountId]?.botLoopProtection,
  };
}
