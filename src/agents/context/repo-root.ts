import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";

const found = new LRUCache<string, string | false>({ max: 64 });

/**
 * The repository the agent works in, for the runtime line's `repo=`: `agents.defaults.repoRoot`
 * when set, else the nearest folder at or above the workspace holding `.git` (a directory, or a
 * worktree's file). Looked up once per workspace per process.
 */
export function resolveRepoRoot(configured: string | undefined, workspaceDir: string): string | undefined {
  if (configured?.trim()) return configured.trim();
  let known = found.get(workspaceDir);
  if (known === undefined) {
    known = walkUp(path.resolve(workspaceDir)) ?? false;
    found.set(workspaceDir, known);
  }
  return known || undefined;
}

function walkUp(start: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
