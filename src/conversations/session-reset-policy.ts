/** `session.reset`: never (default), daily at a local hour, or after a quiet period. */
export interface SessionResetSettings {
  mode?: "none" | "daily" | "idle";
  atHour?: number;
  idleMinutes?: number;
}

/** `session.reset` and OpenClaw's overrides of it by kind of chat and by channel. */
export interface SessionResetConfig {
  reset?: SessionResetSettings;
  resetByType?: Partial<Record<SessionResetType, SessionResetSettings>>;
  resetByChannel?: Record<string, SessionResetSettings>;
}

/** The kinds of chat `session.resetByType` tells apart. */
export type SessionResetType = "direct" | "group" | "thread";

/**
 * A session's kind of chat, as OpenClaw reads it: a thread (or Telegram forum topic) by its key,
 * a group or channel by its recorded chat type or its key, anything else (DMs, the main session,
 * operator and HTTP sessions) direct.
 */
export function sessionResetType(sessionKey: string, chatType: string | undefined): SessionResetType {
  if (/:(thread|topic):/.test(sessionKey)) return "thread";
  if (chatType === "group" || chatType === "channel" || /:(group|channel):/.test(sessionKey)) return "group";
  return "direct";
}

/** The policy for a session: its channel's (`resetByChannel`), else its kind's (`resetByType`), else `reset`. */
export function resetSettingsFor(config: SessionResetConfig, session: { sessionKey: string; chatType?: string; channel?: string }): SessionResetSettings | undefined {
  const channels = config.resetByChannel;
  const byChannel = channels && session.channel !== undefined && Object.hasOwn(channels, session.channel) ? channels[session.channel] : undefined;
  return byChannel ?? config.resetByType?.[sessionResetType(session.sessionKey, session.chatType)] ?? config.reset;
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
