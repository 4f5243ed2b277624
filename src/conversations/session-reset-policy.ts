/** `session.reset`: never (default), daily at a local hour, or after a quiet period. */
export interface SessionResetSettings {
  mode?: "none" | "daily" | "idle";
  atHour?: number;
  idleMinutes?: number;
}

/** What the reset rules read from a session's row. */
export interface SessionActivity {
  /** When this sessionId started: the daily reset compares it with the day's boundary. */
  sessionStartedAt: number;
  /** A person's last message: the idle reset counts from it (heartbeats and announcements do not extend it). */
  lastInteractionAt?: number;
  /** Any last write, for a row written before `lastInteractionAt` was kept. */
  updatedAt: number;
}

/**
 * True when a session should start over before a person's next message. As in OpenClaw: a
 * `reset` block without a mode is a daily reset, and `idleMinutes` ends a daily session too
 * (whichever comes first); `idle` without `idleMinutes` waits 240 minutes.
 */
export function sessionResetDue(activity: SessionActivity, settings: SessionResetSettings | undefined, now: number): boolean {
  if (!settings) return false;
  const mode = settings.mode ?? "daily";
  if (mode === "none") return false;
  const idleMinutes = settings.idleMinutes ?? (mode === "idle" ? 240 : undefined);
  const lastInteraction = activity.lastInteractionAt ?? activity.updatedAt;
  if (idleMinutes !== undefined && now - lastInteraction >= idleMinutes * 60_000) return true;
  if (mode !== "daily") return false;
  // Daily: reset when the most recent boundary (today's atHour, or yesterday's if not reached yet) lies after the session's start.
  const boundary = new Date(now);
  boundary.setHours(settings.atHour ?? 4, 0, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  return activity.sessionStartedAt < boundary.getTime();
}
