import { describe, expect, it } from "vitest";
import { resetSettingsFor, sessionResetDue, sessionResetType } from "../../../src/conversations/session-reset-policy.js";

/** A session started and last written to at `t`, by a person. */
const since = (t: number) => ({ sessionStartedAt: t, lastInteractionAt: t, updatedAt: t });

/** The defaults docs/configuration.md states for `session.reset`. */
describe("sessionResetDue defaults", () => {
  const at = (hour: number, minute = 0) => new Date(2026, 0, 10, hour, minute).getTime();

  it("never resets without a mode, or with mode none", () => {
    expect(sessionResetDue(since(at(0) - 30 * 86_400_000), undefined, at(12))).toBe(false);
    expect(sessionResetDue(since(at(0) - 30 * 86_400_000), { mode: "none" }, at(12))).toBe(false);
  });

  it("daily without atHour resets at 4:00 local time", () => {
    expect(sessionResetDue(since(at(3, 59)), { mode: "daily" }, at(4, 1))).toBe(true);
    expect(sessionResetDue(since(at(4, 1)), { mode: "daily" }, at(23))).toBe(false);
  });

  it("idle without idleMinutes resets after 240 minutes", () => {
    expect(sessionResetDue(since(at(8)), { mode: "idle" }, at(11, 59))).toBe(false);
    expect(sessionResetDue(since(at(8)), { mode: "idle" }, at(12))).toBe(true);
  });
});

/** OpenClaw's rules for a `reset` block without a mode, and for `idleMinutes` beside `daily`. */
describe("sessionResetDue with daily and idle together", () => {
  const at = (hour: number, minute = 0) => new Date(2026, 0, 10, hour, minute).getTime();

  it("a reset block without a mode is a daily reset", () => {
    expect(sessionResetDue(since(at(3, 59)), {}, at(4, 1))).toBe(true);
    expect(sessionResetDue(since(at(5, 59)), { atHour: 6 }, at(6, 1))).toBe(true);
    expect(sessionResetDue(since(at(6, 1)), { atHour: 6 }, at(23))).toBe(false);
  });

  it("idleMinutes ends a daily session before its daily boundary", () => {
    expect(sessionResetDue(since(at(8)), { mode: "daily", idleMinutes: 60 }, at(9))).toBe(true);
    expect(sessionResetDue(since(at(8)), { mode: "daily", idleMinutes: 60 }, at(8, 59))).toBe(false);
    expect(sessionResetDue(since(at(8)), { idleMinutes: 60 }, at(9, 30))).toBe(true);
  });
});

/** Daily counts from the session's start, idle from a person's last message: runtime writes extend neither. */
describe("sessionResetDue reads the session's start and its last interaction", () => {
  const at = (hour: number, minute = 0) => new Date(2026, 0, 10, hour, minute).getTime();

  it("a heartbeat that wrote after a person's last message does not keep the session from going idle", () => {
    const activity = { sessionStartedAt: at(6), lastInteractionAt: at(8), updatedAt: at(9, 45) };
    expect(sessionResetDue(activity, { mode: "idle", idleMinutes: 60 }, at(10))).toBe(true);
    expect(sessionResetDue({ ...activity, lastInteractionAt: at(9, 30) }, { mode: "idle", idleMinutes: 60 }, at(10))).toBe(false);
  });

  it("a session started before the daily boundary starts over, even when something wrote to it after the boundary", () => {
    const activity = { sessionStartedAt: at(3), lastInteractionAt: at(3, 30), updatedAt: at(4, 10) };
    expect(sessionResetDue(activity, { mode: "daily" }, at(8))).toBe(true);
    expect(sessionResetDue({ ...activity, sessionStartedAt: at(4, 5) }, { mode: "daily" }, at(8))).toBe(false);
  });

  it("a row without lastInteractionAt (written by an older build) counts idle time from its last write", () => {
    expect(sessionResetDue({ sessionStartedAt: at(6), updatedAt: at(9, 30) }, { mode: "idle", idleMinutes: 60 }, at(10))).toBe(false);
    expect(sessionResetDue({ sessionStartedAt: at(6), updatedAt: at(8) }, { mode: "idle", idleMinutes: 60 }, at(10))).toBe(true);
  });
});

/** `session.resetByChannel` beats `session.resetByType`, which beats `session.reset`. */
describe("resetSettingsFor", () => {
  const daily = { mode: "daily" as const };
  const idle = { mode: "idle" as const, idleMinutes: 30 };
  const none = { mode: "none" as const };

  it("reads a session's kind from its key and recorded chat type", () => {
    expect(sessionResetType("agent:main:main", "direct")).toBe("direct");
    expect(sessionResetType("agent:main:openai-user:ann", undefined)).toBe("direct");
    expect(sessionResetType("agent:main:telegram:group:-100", "group")).toBe("group");
    expect(sessionResetType("agent:main:slack:channel:c1", undefined)).toBe("group");
    expect(sessionResetType("agent:main:discord:channel:c1:thread:t1", "channel")).toBe("thread");
    expect(sessionResetType("agent:main:telegram:group:-100:topic:7", "group")).toBe("thread");
  });

  it("takes the channel's policy, else the kind's, else session.reset", () => {
    const config = { reset: daily, resetByType: { group: none, thread: idle }, resetByChannel: { telegram: idle } };
    expect(resetSettingsFor(config, { sessionKey: "agent:main:telegram:group:-100", chatType: "group", channel: "telegram" })).toBe(idle);
    expect(resetSettingsFor(config, { sessionKey: "agent:main:slack:channel:c1", chatType: "channel", channel: "slack" })).toBe(none);
    expect(resetSettingsFor(config, { sessionKey: "agent:main:discord:channel:c1:thread:t1", channel: "discord" })).toBe(idle);
    expect(resetSettingsFor(config, { sessionKey: "agent:main:main" })).toBe(daily);
    expect(resetSettingsFor({ resetByChannel: { slack: idle } }, { sessionKey: "agent:main:main", channel: "toString" })).toBeUndefined();
  });
});
