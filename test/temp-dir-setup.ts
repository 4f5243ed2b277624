import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The suite's temporary files (every test's state dirs and workspaces, and those of the gateways
 * and agents it spawns) go under one directory of this run, removed when the run ends, so a run
 * leaves nothing behind in the system's temp dir. So does the compile cache of the commands they
 * run (src/cli/compile-cache.ts), shared by the run's commands, not left in the user's ~/.cache.
 * Set before the workers start: they and their children inherit TMPDIR, which `os.tmpdir()`
 * reads, and XDG_CACHE_HOME.
 */
export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-vitest-"));
  process.env.TMPDIR = dir;
  process.env.XDG_CACHE_HOME = path.join(dir, "xdg-cache");
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
