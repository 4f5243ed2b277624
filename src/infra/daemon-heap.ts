import v8 from "node:v8";

/** How far V8 may grow the old generation past what survived the last full GC, in percent. */
export const DAEMON_HEAP_GROWING_PERCENT = 30;

/**
 * A gateway is a daemon that lives for weeks, so it trades a little GC time for memory. Left to
 * itself, V8 on a machine with several GB of RAM lets the old generation grow to up to 4× what
 * survived the last full GC before collecting again, and the pages it grew into stay resident:
 * a conversation soak held ~40 MiB more than it used. Capping that growth at 30 % costs one more
 * full GC every second or so under full load (5–15 ms each, mostly off the main thread).
 *
 * The flag is read at every GC, so setting it after start-up takes effect. A heap growing
 * percent the user gave node themselves (command line or NODE_OPTIONS) is left alone.
 */
export function tuneHeapForDaemon(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): boolean {
  const given = [...execArgv, nodeOptions].some((arg) => /heap[-_]growing[-_]percent/.test(arg));
  if (given) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`);
  return true;
}
