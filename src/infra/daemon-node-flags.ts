/**
 * Node and V8 flags for a gateway that lives for weeks, given to `node` where the process starts
 * (they are read at start-up; switching V8 flags in a running process is documented as unsafe):
 * `openclaw gateway start` adds them to the daemon's command line and the Docker image's CMD
 * has them; a supervisor that runs `gateway run` itself (systemd, launchd, pm2) puts them on its
 * `node` command line (docs/architecture.md, "Memory over weeks", has the measurements).
 *
 * - `--heap-growing-percent=30`: left to itself, V8 on a machine with several GB of RAM lets the
 *   old generation grow to up to 4× what survived the last full GC before collecting, and the
 *   pages it grew into stay resident. Capped, a busy gateway runs more full GCs (mostly off the
 *   main thread) and keeps far fewer unused pages.
 * - `--max-semi-space-size=2`: V8 doubles the young generation each time a few MB of objects have
 *   survived young collections since it last grew, up to 2 × 16 MB on 64-bit, and never gives
 *   those pages back while the process is busy now and then. A burst of first use (opening a
 *   memory index, loading 10,000 cron jobs) was enough to add 8 MiB of RSS that stayed. Capped at
 *   2 MB, turns under load end 4–5 MiB smaller than at 4 MB, for about 0.05 ms more young
 *   collection per turn on the main thread (twice as many, each as short: what survives a turn
 *   is small) (docs/architecture.md, "Memory over weeks").
 * - `--v8-pool-size=1`: one thread for V8's background work (concurrent marking, sweeping and
 *   optimizing compilation) instead of four. glibc gives each thread that allocates its own malloc
 *   arena, and the optimizing compiler's temporary memory left each of the four holding freed
 *   pages; with one, the bench's load ends ~3 MiB smaller at the same CPU per turn (the work is
 *   the same; on a 2-core machine four threads only took turns).
 */
export const DAEMON_NODE_FLAGS: readonly string[] = ["--heap-growing-percent=30", "--max-semi-space-size=2", "--v8-pool-size=1"];

/**
 * The daemon flags the user did not already give node (on its command line or in
 * NODE_OPTIONS, either spelling, with or without `--no-`): theirs win.
 */
export function daemonNodeFlags(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): string[] {
  const given = [...execArgv, nodeOptions].join(" ").replace(/_/g, "-");
  return DAEMON_NODE_FLAGS.filter((flag) => !given.includes(flag.replace(/^--/, "").split("=")[0]!));
}
