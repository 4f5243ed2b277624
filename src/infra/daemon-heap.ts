import v8 from "node:v8";

/** How far V8 may grow the old generation past what survived the last full GC, in percent. */
export const DAEMON_HEAP_GROWING_PERCENT = 30;

/**
 * V8 flags a gateway sets for itself once started, each with the pattern that tells whether the
 * user already gave node that flag (either spelling, with or without `--no-`).
 *
 * A gateway is a daemon that lives for weeks, so it trades a little GC time for memory:
 * - Left to itself, V8 on a machine with several GB of RAM lets the old generation grow to up
 *   to 4× what survived the last full GC before collecting again, and the pages it grew into
 *   stay resident: a conversation soak held ~40 MiB more than it used. Capped at 30 %, a busy
 *   gateway runs one more full GC every second or so (5–15 ms each, mostly off the main thread).
 * - A full GC normally moves objects only off its most fragmented pages, so the old generation's
 *   pages fill with holes as a session's messages are kept among a turn's garbage: over 10,000
 *   turns it held ~10 MiB of pages for ~3 MiB more live data. Compacting on every full GC keeps
 *   the pages as full as the data; the soak measured no lower throughput.
 *
 * Both flags are read at every GC, so setting them after start-up takes effect.
 */
const DAEMON_FLAGS: readonly { flag: string; given: RegExp }[] = [
  { flag: `--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`, given: /heap[-_]growing[-_]percent/ },
  { flag: "--compact-on-every-full-gc", given: /compact[-_]on[-_]every[-_]full[-_]gc/ },
];

/**
 * Sets the daemon's V8 flags, except any the user gave node themselves (command line or
 * NODE_OPTIONS). Returns the flags it set.
 */
export function tuneHeapForDaemon(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): string[] {
  const userFlags = [...execArgv, nodeOptions];
  const set: string[] = [];
  for (const { flag, given } of DAEMON_FLAGS) {
    if (userFlags.some((arg) => given.test(arg))) continue;
    v8.setFlagsFromString(flag);
    set.push(flag);
  }
  return set;
}
