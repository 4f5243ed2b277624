/** `session.reset`: never (default), daily at a local hour, or after a quiet period. */
export interface SessionResetSettings {
  mode?: "none" | "daily" | "idle";
  atHour?: number;
  idleMinutes?: number;
}

/** True when a session last active at `updatedAt` should start over before the next message. */
export function sessionResetDue(updatedAt: number, settings: SessionResetSettings | undefined, now: number): boolean {
  if (!settings?.mode || settings.mode === "none") return false;
  if (settings.mode === "idle") return now - updatedAt >= (settings.idleMinutes ?? 240) * 60_000;
  // Daily: reset when the most recent boundary (today's atHour, or yesterday's if not reached yet) lies after the last activity.
  const boundary = new Date(now);
  boundary.setHours(settings.atHour ?? 4, 0, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  return updatedAt < boundary.getTime();
}
