/**
 * Wall-clock times in a named IANA time zone. A local time that falls into a daylight-saving gap
 * does not exist and is refused; one that a fall-back hour repeats means its first occurrence.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError naming the zone when `tz` is not an IANA time zone this Node knows. */
export function assertTimeZone(tz: string): void {
  zoneFormatter(tz);
}

function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let formatter = formatters.get(tz);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone: tz,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      throw new RangeError(`unknown time zone "${tz}": use an IANA name such as Europe/Berlin or America/New_York`);
    }
    formatters.set(tz, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at instant `ms`, in milliseconds. */
function offsetAt(ms: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const part of zoneFormatter(tz).formatToParts(new Date(ms))) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The UTC instant of a wall-clock time in `tz`; throws when the time does not exist there. */
export function zonedTimeToUtc(local: LocalDateTime, tz: string): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);
  // The two offsets around the time: the earlier candidate wins when both map back (a repeated hour).
  const candidates = [...new Set([offsetAt(wall - 86_400_000, tz), offsetAt(wall, tz), offsetAt(wall + 86_400_000, tz)])]
    .map((offset) => wall - offset)
    .filter((utc) => utc + offsetAt(utc, tz) === wall)
    .sort((a, b) => a - b);
  if (candidates.length === 0) {
    throw new RangeError(`${formatLocal(local)} does not exist in ${tz}: the clocks skip that time (daylight saving); pick a time outside the gap`);
  }
  return candidates[0]!;
}

function formatLocal(local: LocalDateTime): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}`;
}
