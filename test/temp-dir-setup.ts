import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The suite's temporary files (every test's state dirs and workspaces, and those of the gateways
 * and agents it spawns) go under one directory of this run, removed when the run ends, so a run
 * leaves nothing behind in the system's temp dir. Set before the workers start: they and their
 * children inherit TMPDIR, which `os.tmpdir()` reads.
 */
export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-vitest-"));
  process.env.TMPDIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
