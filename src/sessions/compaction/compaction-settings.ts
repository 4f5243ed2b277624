import type { OpenClawConfig } from "../../config/index.js";

/** `agents.defaults.compaction` with its defaults filled in (docs/configuration.md). */
export interface CompactionSettings {
  enabled: boolean;
  reserveTokensFloor: number;
  keepRecentTokens: number;
  /** Exact `provider/model` for summaries; absent = the session's model. */
  model?: string;
  timeoutMs: number;
  notifyUser: boolean;
  memoryFlush: { enabled: boolean; softThresholdTokens: number };
}

export const COMPACTION_DEFAULTS = {
  reserveTokensFloor: 20_000,
  keepRecentTokens: 20_000,
  timeoutSeconds: 180,
  softThresholdTokens: 4_000,
  /** Whole turns always kept word for word, whatever their size. */
  recentTurnsPreserve: 3,
} as const;

export function resolveCompactionSettings(config: OpenClawConfig): CompactionSettings {
  const c = config.agents.defaults.compaction ?? {};
  return {
    enabled: c.enabled ?? true,
    reserveTokensFloor: c.reserveTokensFloor ?? COMPACTION_DEFAULTS.reserveTokensFloor,
    keepRecentTokens: c.keepRecentTokens ?? COMPACTION_DEFAULTS.keepRecentTokens,
    ...(c.model ? { model: c.model } : {}),
    timeoutMs: (c.timeoutSeconds ?? COMPACTION_DEFAULTS.timeoutSeconds) * 1000,
    notifyUser: c.notifyUser ?? false,
    memoryFlush: { enabled: c.memoryFlush?.enabled ?? true, softThresholdTokens: c.memoryFlush?.softThresholdTokens ?? COMPACTION_DEFAULTS.softThresholdTokens },
  };
}

/** Token marks for one model window, worked out once per turn (all O(1)). */
export interface CompactionThresholds {
  /** Compact after a turn once the context estimate passes this. */
  compactAt: number;
  /** Run the silent memory flush once the estimate passes this (at most once per compaction cycle). */
  flushAt: number;
  /** Newest conversation tokens kept word for word by a compaction. */
  keepRecentTokens: number;
  /** Upper bound for a summary's length, in tokens. */
  summaryMaxTokens: number;
}

/**
 * The reserve below the window is `reserveTokensFloor`, capped at a quarter of the window so a
 * small local model does not compact from its first turn; the kept tail is capped at half of
 * what remains, so a compaction always frees room. The flush comes `softThresholdTokens`
 * earlier (at most half the reserve, for the same reason).
 */
export function compactionThresholds(windowTokens: number, settings: CompactionSettings): CompactionThresholds {
  const reserve = Math.min(settings.reserveTokensFloor, Math.floor(windowTokens / 4));
  const compactAt = windowTokens - reserve;
  const soft = Math.min(settings.memoryFlush.softThresholdTokens, Math.floor(reserve / 2));
  return {
    compactAt,
    flushAt: compactAt - soft,
    keepRecentTokens: Math.max(1, Math.min(settings.keepRecentTokens, Math.floor(compactAt / 2))),
    summaryMaxTokens: Math.max(256, Math.min(4_096, Math.floor(windowTokens / 8))),
  };
}
