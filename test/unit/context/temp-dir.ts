import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

const created: string[] = [];

/** A fresh directory under the OS temp dir, removed after the current test. */
export function makeTempDir(prefix = "openclaw-context-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes `contents` to `dir/relative`, creating parent folders. */
export function writeFile(dir: string, relative: string, contents: string): string {
  const filePath = path.join(dir, relative);
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  fs.writeFileSync(filePath, contents);
  return filePath;
}

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
