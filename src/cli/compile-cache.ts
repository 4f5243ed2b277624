import fs from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { homeDir } from "../config/paths.js";

type EnableCompileCache = (directory?: string) => unknown;

/** `$XDG_CACHE_HOME/openclaw/compile-cache` (default `~/.cache`): the user's own, as the state dir is. */
export function compileCacheDir(env: NodeJS.ProcessEnv): string {
  const cacheHome = env.XDG_CACHE_HOME?.trim() || path.join(homeDir(env), ".cache");
  return path.join(cacheHome, "openclaw", "compile-cache");
}

/** Whether the command runs the gateway in this process: `gateway run …`, or `gateway` with no subcommand (run is its default). */
export function runsGatewayHere(args: readonly string[]): boolean {
  if (args[0] !== "gateway") return false;
  const next = args[1];
  return next === undefined || next === "run" || next.startsWith("-");
}

/**
 * Node's compile cache for this command (Node 22.1 and later; Node 20 has none, and runs as
 * before): the chunks of the bundle are compiled from V8 code cached on disk by an earlier
 * command instead of from their source.
 *
 * - Not for a gateway running in this process: it starts once and then runs for weeks, and
 *   with the cache its RSS after the bench's load was up to 17 MiB higher (docs/architecture.md).
 * - `NODE_DISABLE_COMPILE_CACHE=1` turns it off; `NODE_COMPILE_CACHE=<dir>`, which Node reads
 *   itself at start, puts it there for every command, the gateway included.
 * - A cache that cannot be made (a read-only home) is no error: the command runs without it.
 */
export function enableCompileCache(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE || runsGatewayHere(args)) return;
  const dir = compileCacheDir(env);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    enable(dir);
  } catch {
    // Only a speed-up: the command runs without it.
  }
}
