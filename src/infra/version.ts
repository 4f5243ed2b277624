import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The package version, read once from the nearest package.json above this module: it runs
 * bundled (`dist/bin/`), compiled (`dist/src/infra/`) and as TypeScript under vitest.
 */
export function packageVersion(): string {
  if (cached) return cached;
  cached = "0.0.0";
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "package.json");
    if (fs.existsSync(candidate)) {
      try {
        cached = (JSON.parse(fs.readFileSync(candidate, "utf8")) as { version: string }).version;
      } catch {
        // unreadable: keep the placeholder
      }
      return cached;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return cached;
    dir = parent;
  }
}
