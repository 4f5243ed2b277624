import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | null | undefined;

/**
 * The package's own `hooks/` folder (session-memory, command-logger). This module runs bundled
 * into `dist/bin/`, compiled into `dist/src/hooks/internal/` and as TypeScript under vitest, so
 * walk up to the first folder holding both a package.json and `hooks/`.
 */
export function resolveBundledHooksDir(): string | null {
  if (cached !== undefined) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "hooks");
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(candidate, "session-memory", "HOOK.md"))) return (cached = candidate);
    const parent = path.dirname(dir);
    if (parent === dir) return (cached = null);
    dir = parent;
  }
}
