import { describe, expect, it } from "vitest";
import { sessionResetDue } from "../../../src/conversations/session-reset-policy.js";

/** The defaults docs/configuration.md states for `session.reset`. */
describe("sessionResetDue defaults", () => {
  const at = (hour: number, minute = 0) => new Date(2026, 0, 10, hour, minute).getTime();

  it("never resets without a mode, or with mode none", () => {
    expect(sessionResetDue(at(0) - 30 * 86_400_000, undefined, at(12))).toBe(false);
    expect(sessionResetDue(at(0) - 30 * 86_400_000, { mode: "none" }, at(12))).toBe(false);
  });

  it("daily without atHour resets at 4:00 local time", () => {
    expect(sessionResetDue(at(3, 59), { mode: "daily" }, at(4, 1))).toBe(true);
    expect(sessionResetDue(at(4, 1), { mode: "daily" }, at(23))).toBe(false);
  });

  it("idle without idleMinutes resets after 240 minutes", () => {
    expect(sessionResetDue(at(8), { mode: "idle" }, at(11, 59))).toBe(false);
    expect(sessionResetDue(at(8), { mode: "idle" }, at(12))).toBe(true);
  });
});

/** OpenClaw's rules for a `reset` block without a mode, and for `idleMinutes` beside `daily`. */
describe("sessionResetDue with daily and idle together", () => {
  const at = (hour: number, minute = 0) => new Date(2026, 0, 10, hour, minute).getTime();

  it("a reset block without a mode is a daily reset", () => {
    expect(sessionResetDue(at(3, 59), {}, at(4, 1))).toBe(true);
    expect(sessionResetDue(at(5, 59), { atHour: 6 }, at(6, 1))).toBe(true);
    expect(sessionResetDue(at(6, 1), { atHour: 6 }, at(23))).toBe(false);
  });

  it("idleMinutes ends a daily session before its daily boundary", () => {
    expect(sessionResetDue(at(8), { mode: "daily", idleMinutes: 60 }, at(9))).toBe(true);
    expect(sessionResetDue(at(8), { mode: "daily", idleMinutes: 60 }, at(8, 59))).toBe(false);
    expect(sessionResetDue(at(8), { idleMinutes: 60 }, at(9, 30))).toBe(true);
  });
});
