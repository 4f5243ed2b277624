import { Cron } from "croner";
import { createHash } from "node:crypto";
import { parseDuration } from "../infra/duration.js";
import type { CronSchedule } from "./types.js";
import { assertTimeZone, zonedTimeToUtc } from "./zoned-time.js";

/** Cron expressions that fire on the hour are spread over this window unless the job is exact. */
export const TOP_OF_HOUR_STAGGER_MS = 5 * 60_000;
/** The shortest `every` interval: anything faster is a loop, not a schedule. */
export const MIN_EVERY_MS = 1_000;

export class ScheduleError extends Error {}

/** What a caller may write for a schedule before it is checked and normalized. */
export type ScheduleInput =
  | { kind: "at"; at: string; tz?: string }
  | { kind: "every"; every?: string | number; everyMs?: number; anchorMs?: number }
  | { kind: "cron"; expr: string; tz?: string; staggerMs?: number; exact?: boolean };

/**
 * Checks a schedule and returns it in stored form: `at` becomes an absolute UTC ISO time
 * (relative `20m` counts from `now`; a time without an offset is read in `tz`, else UTC),
 * `every` becomes milliseconds, a cron expression is parsed by croner and must fire at least once more.
 */
export function normalizeSchedule(input: ScheduleInput, now: number, jobId: string): CronSchedule {
  switch (input.kind) {
    case "at":
      return { kind: "at", at: new Date(parseAt(input.at, input.tz, now)).toISOString() };
    case "every":
      return normalizeEvery(input);
    case "cron":
      return normalizeCron(input, now, jobId);
    default:
      throw new ScheduleError(`schedule.kind must be "at", "every" or "cron", got ${JSON.stringify((input as { kind?: unknown }).kind)}`);
  }
}

function normalizeEvery(input: Extract<ScheduleInput, { kind: "every" }>): CronSchedule {
  const raw = input.everyMs ?? input.every;
  const everyMs = typeof raw === "number" ? raw : typeof raw === "string" ? parseDuration(raw) : undefined;
  if (everyMs === undefined || !Number.isSafeInteger(everyMs)) {
    throw new ScheduleError(`every: expected a duration such as 30m, 2h or 1d (or everyMs in milliseconds), got ${JSON.stringify(raw)}`);
  }
  if (everyMs < MIN_EVERY_MS) throw new ScheduleError(`every: ${everyMs} ms is too short; the shortest interval is ${MIN_EVERY_MS / 1000}s`);
  const out: CronSchedule = { kind: "every", everyMs };
  if (input.anchorMs !== undefined) {
    if (!Number.isSafeInteger(input.anchorMs) || input.anchorMs < 0) throw new ScheduleError("anchorMs must be a non-negative integer (epoch milliseconds)");
    out.anchorMs = input.anchorMs;
  }
  return out;
}

function normalizeCron(input: Extract<ScheduleInput, { kind: "cron" }>, now: number, jobId: string): CronSchedule {
  const expr = typeof input.expr === "string" ? input.expr.trim().replace(/\s+/g, " ") : "";
  const fields = expr === "" ? 0 : expr.split(" ").length;
  if (fields !== 5 && fields !== 6) {
    throw new ScheduleError(`cron expression ${JSON.stringify(input.expr)} has ${fields} fields; write 5 (minute hour day month weekday) or 6 (with seconds first)`);
  }
  if (input.tz !== undefined) {
    try {
      assertTimeZone(input.tz);
    } catch (err) {
      throw new ScheduleError((err as Error).message);
    }
  }
  let staggerMs = input.exact ? 0 : input.staggerMs;
  if (staggerMs !== undefined && (!Number.isSafeInteger(staggerMs) || staggerMs < 0 || staggerMs > TOP_OF_HOUR_STAGGER_MS)) {
    throw new ScheduleError(`staggerMs must be an integer from 0 to ${TOP_OF_HOUR_STAGGER_MS}`);
  }
  staggerMs ??= isTopOfHour(expr) ? defaultStagger(jobId) : 0;
  const schedule: CronSchedule = { kind: "cron", expr, ...(input.tz ? { tz: input.tz } : {}), staggerMs };
  let next: number | undefined;
  try {
    next = nextCronRun(schedule, now);
  } catch (err) {
    throw new ScheduleError(`invalid cron expression ${JSON.stringify(expr)}: ${(err as Error).message}`);
  }
  if (next === undefined) throw new ScheduleError(`cron expression ${JSON.stringify(expr)} never fires (an impossible date such as February 30?)`);
  return schedule;
}

/** Minute field `0` (and seconds `0` when given) with a wildcard or list in the hour field: many such jobs would all start at once. */
function isTopOfHour(expr: string): boolean {
  const fields = expr.split(" ");
  const [seconds, minute] = fields.length === 6 ? [fields[0], fields[1]] : ["0", fields[0]];
  return minute === "0" && (seconds === "0" || seconds === "00");
}

/** A stable offset per job in [0, 5 min): the same job always fires at the same minute. */
function defaultStagger(jobId: string): number {
  const digest = createHash("sha256").update(jobId).digest();
  return digest.readUInt32BE(0) % TOP_OF_HOUR_STAGGER_MS;
}

/** The next time the schedule fires strictly after `afterMs`; undefined when it never does again. */
export function nextRunAt(schedule: CronSchedule, afterMs: number, createdAtMs: number): number | undefined {
  switch (schedule.kind) {
    case "at": {
      const at = Date.parse(schedule.at);
      return at > afterMs ? at : undefined;
    }
    case "every": {
      const anchor = schedule.anchorMs ?? createdAtMs;
      if (afterMs < anchor) return anchor;
      const periods = Math.floor((afterMs - anchor) / schedule.everyMs) + 1;
      return anchor + periods * schedule.everyMs;
    }
    case "cron":
      return nextCronRun(schedule, afterMs);
  }
}

const patterns = new Map<string, Cron>();

function nextCronRun(schedule: Extract<CronSchedule, { kind: "cron" }>, afterMs: number): number | undefined {
  const key = `${schedule.tz ?? ""}\u0000${schedule.expr}`;
  let cron = patterns.get(key);
  if (!cron) {
    cron = new Cron(schedule.expr, { paused: true, ...(schedule.tz ? { timezone: schedule.tz } : {}), mode: "5-or-6-parts" });
    if (patterns.size > 1_000) patterns.clear();
    patterns.set(key, cron);
  }
  const stagger = schedule.staggerMs ?? 0;
  const next = cron.nextRun(new Date(afterMs - stagger));
  return next ? next.getTime() + stagger : undefined;
}

const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** `20m` (from now), or an ISO date-time; without an offset it is read in `tz`, else in UTC. */
export function parseAt(text: string, tz: string | undefined, now: number): number {
  if (typeof text !== "string" || text.trim() === "") throw new ScheduleError("at: expected an ISO date-time (2026-12-24T18:00) or a delay such as 20m");
  const trimmed = text.trim();
  const delay = parseDuration(trimmed);
  const tzIgnored = (what: string) => new ScheduleError(`at: a time zone applies to an ISO time without an offset; ${what}, so leave tz (--tz) out`);
  if (delay !== undefined) {
    if (tz) throw tzIgnored(`${trimmed} counts from now`);
    if (delay <= 0) throw new ScheduleError("at: a delay must be longer than 0");
    return now + delay;
  }
  const match = ISO_LOCAL.exec(trimmed);
  if (!match) throw new ScheduleError(`at: ${JSON.stringify(text)} is neither an ISO date-time (2026-12-24T18:00) nor a delay such as 20m`);
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "0", offset] = match;
  const local = { year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s), millisecond: Number(frac.padEnd(3, "0")) };
  if (local.month < 1 || local.month > 12) throw new ScheduleError(`at: ${trimmed} has no month ${local.month}`);
  const daysInMonth = new Date(Date.UTC(local.year, local.month, 0)).getUTCDate();
  if (local.day < 1 || local.day > daysInMonth) throw new ScheduleError(`at: ${trimmed} is not a date (month ${local.month} of ${local.year} has ${daysInMonth} days)`);
  if (local.hour > 23 || local.minute > 59 || local.second > 59) throw new ScheduleError(`at: ${trimmed} is not a time of day`);
  if (offset) {
    if (tz) throw tzIgnored(`${trimmed} carries its own offset`);
    const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);
    if (offset.toUpperCase() === "Z") return wall;
    const sign = offset.startsWith("-") ? -1 : 1;
    const digits = offset.slice(1).replace(":", "");
    return wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  if (!tz) return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);
  try {
    return zonedTimeToUtc(local, tz);
  } catch (err) {
    throw new ScheduleError(`at: ${(err as Error).message}`);
  }
}

/** A schedule in words, for lists: `cron 0 9 * * * (Europe/Berlin)`, `every 30m`, `at 2026-12-24T17:00:00.000Z`. */
export function describeSchedule(schedule: CronSchedule): string {
  switch (schedule.kind) {
    case "at":
      return `at ${schedule.at}`;
    case "every":
      return `every ${schedule.everyMs / 1000}s`;
    case "cron":
      return `cron ${schedule.expr}${schedule.tz ? ` (${schedule.tz})` : ""}`;
  }
}
