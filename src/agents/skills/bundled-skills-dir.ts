import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The package's own `skills/` folder. This module runs from three places: bundled into
 * `dist/bin/*.js`, compiled into `dist/src/agents/skills/`, and as TypeScript under vitest; so no
 * fixed `../..` holds. Walk up to the first folder with both a package.json and a `skills/`
 * folder (checking for package.json keeps `dist/src/agents/skills` itself from matching).
 */
export function findBundledSkillsDir(moduleUrl: string): string | null {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const candidate = path.join(dir, "skills");
    if (fs.existsSync(path.join(dir, "package.json")) && isDirectory(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

let cached: string | null | undefined;

/** `findBundledSkillsDir` for this module, looked up once per process. */
export function resolveBundledSkillsDir(): string | null {
  if (cached === undefined) cached = findBundledSkillsDir(import.meta.url);
  return cached;
}
