import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/infra/duration.js";
import { nextRunAt, normalizeSchedule, parseAt, ScheduleError, TOP_OF_HOUR_STAGGER_MS } from "../../../src/cron/schedule.js";
import type { CronSchedule } from "../../../src/cron/types.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");

function runs(schedule: CronSchedule, from: number, count: number): string[] {
  const out: string[] = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    at = nextRunAt(schedule, at, from)!;
    out.push(new Date(at).toISOString());
  }
  return out;
}

describe("cron schedules", () => {
  it("refuses cron expressions croner cannot parse, with the expression in the message", () => {
    expect(() => normalizeSchedule({ kind: "cron", expr: "61 * * * *" }, NOW, "j")).toThrow(ScheduleError);
    expect(() => normalizeSchedule({ kind: "cron", expr: "not a cron" }, NOW, "j")).toThrow(/"not a cron"/);
    expect(() => normalizeSchedule({ kind: "cron", expr: "0 9 * *" }, NOW, "j")).toThrow(/has 4 fields; write 5/);
    expect(() => normalizeSchedule({ kind: "cron", expr: "0 0 9 * * * 2027" }, NOW, "j")).toThrow(/has 7 fields/);
  });

  it("refuses an expression that never fires (February 30) and an impossible at date", () => {
    expect(() => normalizeSchedule({ kind: "cron", expr: "0 9 30 2 *" }, NOW, "j")).toThrow(/never fires/);
    expect(() => parseAt("2026-02-30T09:00", undefined, NOW)).toThrow(/month 2 of 2026 has 28 days/);
    expect(() => parseAt("2026-13-01T09:00", undefined, NOW)).toThrow(/no month 13/);
    expect(() => parseAt("2026-02-28T25:00", undefined, NOW)).toThrow(/not a time of day/);
  });

  it("refuses every 0 and intervals under a second, and unknown time zones", () => {
    expect(() => normalizeSchedule({ kind: "every", every: "0m" }, NOW, "j")).toThrow(/too short/);
    expect(() => normalizeSchedule({ kind: "every", everyMs: 0 }, NOW, "j")).toThrow(/too short/);
    expect(() => normalizeSchedule({ kind: "every", every: "soon" }, NOW, "j")).toThrow(/expected a duration/);
    expect(() => normalizeSchedule({ kind: "cron", expr: "0 9 * * *", tz: "Mars/Base" }, NOW, "j")).toThrow(/unknown time zone "Mars\/Base"/);
  });

  it("reads at as ISO in UTC, with an offset, in a named zone, or relative to now", () => {
    expect(parseAt("2026-12-24T18:00", undefined, NOW)).toBe(Date.parse("2026-12-24T18:00:00Z"));
    expect(parseAt("2026-12-24T18:00+01:00", undefined, NOW)).toBe(Date.parse("2026-12-24T17:00:00Z"));
    expect(parseAt("2026-12-24T18:00", "Europe/Berlin", NOW)).toBe(Date.parse("2026-12-24T17:00:00Z"));
    expect(parseAt("20m", undefined, NOW)).toBe(NOW + 20 * 60_000);
    expect(parseDuration("1h30m")).toBe(90 * 60_000);
    expect(parseDuration("30m1h")).toBeUndefined();
    expect(parseDuration("1m1m")).toBeUndefined();
    expect(parseDuration(" 1M5ms ")).toBe(60_005);
    expect(parseDuration("99999999d23h59m59s999ms")).toBe(99_999_999 * 86_400_000 + 86_399_999);
  });

  it("refuses an at time inside a daylight-saving gap and takes the first of a repeated hour", () => {
    expect(() => parseAt("2026-03-29T02:30", "Europe/Berlin", NOW)).toThrow(/does not exist in Europe\/Berlin/);
    // 02:30 happens twice on 2026-10-25 in Berlin: first at 00:30Z (CEST), then 01:30Z (CET).
    expect(new Date(parseAt("2026-10-25T02:30", "Europe/Berlin", NOW)).toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("a daily cron in a named zone fires once per day across the spring gap and the autumn repeat", () => {
    const daily = normalizeSchedule({ kind: "cron", expr: "30 2 * * *", tz: "Europe/Berlin" }, NOW, "j");
    expect(runs(daily, Date.parse("2026-03-28T12:00:00Z"), 2)).toEqual(["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"]);
    expect(runs(daily, Date.parse("2026-10-24T12:00:00Z"), 2)).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  });

  it("09:00 Europe/Berlin follows the zone's offset through the year", () => {
    const nine = normalizeSchedule({ kind: "cron", expr: "0 9 * * *", tz: "Europe/Berlin", exact: true }, NOW, "j");
    expect(runs(nine, Date.parse("2026-01-10T12:00:00Z"), 1)).toEqual(["2026-01-11T08:00:00.000Z"]);
    expect(runs(nine, Date.parse("2026-07-10T12:00:00Z"), 1)).toEqual(["2026-07-11T07:00:00.000Z"]);
  });

  it("staggers top-of-hour expressions by a stable offset under 5 minutes unless exact", () => {
    const a = normalizeSchedule({ kind: "cron", expr: "0 * * * *" }, NOW, "job-a") as Extract<CronSchedule, { kind: "cron" }>;
    const again = normalizeSchedule({ kind: "cron", expr: "0 * * * *" }, NOW, "job-a") as Extract<CronSchedule, { kind: "cron" }>;
    const exact = normalizeSchedule({ kind: "cron", expr: "0 * * * *", exact: true }, NOW, "job-a") as Extract<CronSchedule, { kind: "cron" }>;
    const offHour = normalizeSchedule({ kind: "cron", expr: "15 * * * *" }, NOW, "job-a") as Extract<CronSchedule, { kind: "cron" }>;
    expect(a.staggerMs).toBe(again.staggerMs);
    expect(a.staggerMs).toBeGreaterThan(0);
    expect(a.staggerMs).toBeLessThan(TOP_OF_HOUR_STAGGER_MS);
    expect(exact.staggerMs).toBe(0);
    expect(offHour.staggerMs).toBe(0);
    // 12:00 itself is the next slot: the job fires at 12:00 plus its offset.
    expect(nextRunAt(a, NOW, NOW)).toBe(NOW + a.staggerMs!);
  });

  it("every counts from its anchor, so a missed stretch yields the next slot, not a backlog", () => {
    const every = normalizeSchedule({ kind: "every", every: "30m" }, NOW, "j");
    expect(nextRunAt(every, NOW, NOW)).toBe(NOW + 30 * 60_000);
    expect(nextRunAt(every, NOW + 5 * 3_600_000 + 1, NOW)).toBe(NOW + 5.5 * 3_600_000);
  });
});
