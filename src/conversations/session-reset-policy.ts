/** `session.reset`: never (default), daily at a local hour, or after a quiet period. */
export interface SessionResetSettings {
  mode?: "none" | "daily" | "idle";
  atHour?: number;
  idleMinutes?: number;
}

/**
 * True when a session last active at `updatedAt` should start over before the next message.
 * As in OpenClaw: a `reset` block without a mode is a daily reset, and `idleMinutes` ends a daily
 * session too (whichever comes first); `idle` without `idleMinutes` waits 240 minutes.
 */
export function sessionResetDue(updatedAt: number, settings: SessionResetSettings | undefined, now: number): boolean {
  if (!settings) return false;
  const mode = settings.mode ?? "daily";
  if (mode === "none") return false;
  const idleMinutes = settings.idleMinutes ?? (mode === "idle" ? 240 : undefined);
  if (idleMinutes !== undefined && now - updatedAt >= idleMinutes * 60_000) return true;
  if (mode !== "daily") return false;
  // Daily: reset when the most recent boundary (today's atHour, or yesterday's if not reached yet) lies after the last activity.
  const boundary = new Date(now);
  boundary.setHours(settings.atHour ?? 4, 0, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  return updatedAt < boundary.getTime();
}
