import type { OpenClawConfig } from "../../config/index.js";
import { DEFAULT_STARTUP_NOTES, type StartupNotesLimits } from "../../memory/daily-notes.js";

/** What reset a session: `/new` (or `sessions.reset` with reason `new`), or `/reset` (`sessions.reset`). */
export type StartupReason = "new" | "reset";

/**
 * Whether the first run after a reset is offered the recent daily notes, and how much of them
 * (`agents.defaults.startupContext`: on by default, for `new` and `reset`); undefined when not.
 */
export function startupNotesFor(config: OpenClawConfig, reason: StartupReason | undefined): StartupNotesLimits | undefined {
  const settings = config.agents.defaults.startupContext;
  if (!reason || settings?.enabled === false || !(settings?.applyOn ?? ["new", "reset"]).includes(reason)) return undefined;
  return {
    days: settings?.dailyMemoryDays ?? DEFAULT_STARTUP_NOTES.days,
    maxFileBytes: settings?.maxFileBytes ?? DEFAULT_STARTUP_NOTES.maxFileBytes,
    maxFileChars: settings?.maxFileChars ?? DEFAULT_STARTUP_NOTES.maxFileChars,
    maxTotalChars: settings?.maxTotalChars ?? DEFAULT_STARTUP_NOTES.maxTotalChars,
  };
}
