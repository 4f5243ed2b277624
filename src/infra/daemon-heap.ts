import v8 from "node:v8";

/** How far V8 may grow the old generation past what survived the last full GC, in percent. */
export const DAEMON_HEAP_GROWING_PERCENT = 30;

/**
 * Compaction on every full GC moves every live object of the old generation, so its pause grows
 * with the heap (docs/architecture.md, "Memory over weeks"). Above this much in use it is
 * switched off (V8's own choice of pages again), and back on below the lower mark.
 */
export const COMPACT_EVERY_GC_UP_TO_MIB = 64;
export const COMPACT_EVERY_GC_RESUME_BELOW_MIB = 48;
/** How often the old generation's size is looked at (one cheap V8 call). */
const COMPACTION_CHECK_INTERVAL_MS = 10_000;

const COMPACT_FLAG = /compact[-_]on[-_]every[-_]full[-_]gc/;

/**
 * A gateway is a daemon that lives for weeks, so it trades a little GC time for memory (the
 * measurements are in docs/architecture.md, "Memory over weeks"):
 * - Left to itself, V8 on a machine with several GB of RAM lets the old generation grow to up
 *   to 4× what survived the last full GC before collecting again, and the pages it grew into
 *   stay resident. Capped at 30 %, a busy gateway runs more full GCs (mostly off the main
 *   thread) and keeps far fewer unused pages resident.
 * - A full GC normally moves objects only off its most fragmented pages, so the old generation's
 *   pages fill with holes as a session's messages are kept among a turn's garbage, until it holds
 *   far more pages than live data. Compacting on every full GC keeps the pages as full as the
 *   data, for a longer pause (see COMPACT_EVERY_GC_UP_TO_MIB).
 *
 * Both flags are read at every GC, so setting them after start-up takes effect. A flag the user
 * gave node (command line or NODE_OPTIONS, either spelling, with or without `--no-`) is left
 * alone. Returns what it set up; `stop()` ends the compaction checks.
 */
export function tuneHeapForDaemon(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): DaemonHeapTuning {
  const userFlags = [...execArgv, nodeOptions];
  const flags: string[] = [];
  if (!userFlags.some((arg) => /heap[-_]growing[-_]percent/.test(arg))) {
    const flag = `--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`;
    v8.setFlagsFromString(flag);
    flags.push(flag);
  }
  if (userFlags.some((arg) => COMPACT_FLAG.test(arg))) return { flags, stop: () => {} };
  const compaction = new CompactionSwitch();
  compaction.update(oldSpaceUsedBytes());
  flags.push("--compact-on-every-full-gc (while the old generation is small)");
  const timer = setInterval(() => compaction.update(oldSpaceUsedBytes()), COMPACTION_CHECK_INTERVAL_MS);
  timer.unref();
  return { flags, stop: () => clearInterval(timer) };
}

export interface DaemonHeapTuning {
  /** What was set, for the log. */
  flags: string[];
  stop(): void;
}

/** `--compact-on-every-full-gc` on while the old generation is small, with hysteresis. */
export class CompactionSwitch {
  private on = false;

  constructor(private readonly setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags)) {}

  /** Given the old generation's size in use now; returns whether compaction on every full GC is on. */
  update(oldSpaceUsed: number): boolean {
    const mib = oldSpaceUsed / (1024 * 1024);
    const wanted = this.on ? mib <= COMPACT_EVERY_GC_UP_TO_MIB : mib < COMPACT_EVERY_GC_RESUME_BELOW_MIB;
    if (wanted !== this.on) {
      this.setFlags(wanted ? "--compact-on-every-full-gc" : "--no-compact-on-every-full-gc");
      this.on = wanted;
    }
    return this.on;
  }
}

function oldSpaceUsedBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space")?.space_used_size ?? 0;
}
