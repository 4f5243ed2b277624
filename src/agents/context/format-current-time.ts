import { hostTimeZone } from "../../infra/host-time-zone.js";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A wall-clock reading: the date, the time to the minute and the zone's offset from UTC. */
export interface ClockParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** "+01:00", "-04:00", "+00:00". */
  offset: string;
}

// Building an Intl formatter costs far more than using one; there are few distinct zones.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The clock in `timeZone` through Intl (throws for an unknown zone). */
export function zoneClockParts(now: Date, timeZone: string): ClockParts {
  const p: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(now)) p[part.type] = part.value;
  const offset = (p.timeZoneName ?? "GMT").replace(/^GMT/, "");
  return { year: Number(p.year), month: Number(p.month), day: Number(p.day), hour: Number(p.hour), minute: Number(p.minute), offset: offset || "+00:00" };
}

/** The clock in the host's zone, from the `Date` getters: no Intl formatter (docs/architecture.md, "Measured costs"). */
export function localClockParts(now: Date): ClockParts {
  const east = -now.getTimezoneOffset();
  const abs = Math.abs(east);
  const offset = `${east < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate(), hour: now.getHours(), minute: now.getMinutes(), offset };
}

function utcClockParts(now: Date): ClockParts {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate(), hour: now.getUTCHours(), minute: now.getUTCMinutes(), offset: "+00:00" };
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * "2026-11-29 19:14 Sunday, time zone Europe/Berlin (UTC+01:00)". Built from numeric parts, not
 * a locale string, so the text does not change with the host's locale. An unknown time zone
 * falls back to UTC rather than failing the whole run.
 */
export function formatCurrentTime(now: Date, timeZone: string): string {
  // The text has minute resolution and every turn asks: remember the last answer per zone.
  const minute = Math.floor(now.getTime() / 60_000);
  const last = lastFormatted.get(timeZone);
  if (last?.minute === minute) return last.text;
  const text = formatUncached(now, timeZone);
  lastFormatted.set(timeZone, { minute, text });
  return text;
}

const lastFormatted = new Map<string, { minute: number; text: string }>();

function formatUncached(now: Date, timeZone: string): string {
  let zone = timeZone.trim() || "UTC";
  let clock: ClockParts;
  if (zone === hostTimeZone()) clock = localClockParts(now);
  else if (zone === "UTC") clock = utcClockParts(now);
  else {
    try {
      clock = zoneClockParts(now, zone);
    } catch {
      zone = "UTC";
      clock = utcClockParts(now);
    }
  }
  // The weekday of the local calendar date, without a second locale-dependent lookup.
  const weekday = WEEKDAYS[new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay()];
  return `${clock.year}-${pad2(clock.month)}-${pad2(clock.day)} ${pad2(clock.hour)}:${pad2(clock.minute)} ${weekday}, time zone ${zone} (UTC${clock.offset})`;
}

const stampFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * "2026-03-02 00:32:44 GMT+8": when something happened, to the second, in `timeZone` (an unknown
 * zone reads as UTC). The stamp of a `System:` line.
 */
export function formatEventTimestamp(at: Date, timeZone: string): string {
  let formatter = stampFormatters.get(timeZone);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "shortOffset",
    };
    try {
      formatter = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    } catch {
      formatter = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    }
    stampFormatters.set(timeZone, formatter);
  }
  const p: Record<string, string> = {};
  for (const part of formatter.formatToParts(at)) p[part.type] = part.value;
  // ICU writes UTC itself as "GMT+0".
  const zone = !p.timeZoneName || p.timeZoneName === "GMT+0" ? "GMT" : p.timeZoneName;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${zone}`;
}
