import type { TurnOverrides } from "../agents/embedded-turn.js";
import type { SessionEntry } from "../sessions/store/index.js";

/**
 * What a session's own settings change about its next turn: the model the user chose (`/model`,
 * `sessions.patch`; strict, no fallback), the thinking, verbose and reasoning levels and the `/elevated`
 * level (which counts only for a sender `tools.elevated` admits).
 */
export function sessionTurnSettings(
  entry: SessionEntry | undefined,
): Pick<TurnOverrides, "sessionModel" | "thinkingLevel" | "verboseLevel" | "reasoningLevel"> & { sessionElevatedLevel?: string } {
  if (!entry) return {};
  return {
    ...(entry.modelOverride && entry.modelOverrideSource === "user" ? { sessionModel: entry.modelOverride } : {}),
    ...(entry.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}),
    ...(entry.verboseLevel ? { verboseLevel: entry.verboseLevel } : {}),
    ...(entry.reasoningLevel ? { reasoningLevel: entry.reasoningLevel } : {}),
    ...(entry.elevatedLevel ? { sessionElevatedLevel: entry.elevatedLevel } : {}),
  };
}
