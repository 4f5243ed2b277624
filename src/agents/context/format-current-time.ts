const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

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

function parts(now: Date, timeZone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(now)) out[part.type] = part.value;
  return out;
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
  let p: Record<string, string>;
  try {
    p = parts(now, zone);
  } catch {
    zone = "UTC";
    p = parts(now, zone);
  }
  const offset = (p.timeZoneName ?? "GMT").replace(/^GMT/, "UTC");
  // The weekday of the local calendar date, without a second locale-dependent lookup.
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day))).getUTCDay()];
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${weekday}, time zone ${zone} (${offset === "UTC" ? "UTC+00:00" : offset})`;
}
