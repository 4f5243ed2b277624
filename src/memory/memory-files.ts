import fs from "node:fs/promises";
import path from "node:path";

/** Larger files are not notes; they are skipped with a logged reason. */
export const MEMORY_MAX_FILE_BYTES = 2 * 1024 * 1024;
const ROOT_FILES = ["MEMORY.md", "memory.md", "USER.md"];

/** A file that belongs in the index: `relPath` is its key (workspace-relative, `/`-separated). */
export interface MemoryFileRef {
  relPath: string;
  absPath: string;
  mtimeMs: number;
  size: number;
}

export interface SkippedFile {
  relPath: string;
  reason: string;
}

export interface MemoryFileListing {
  files: MemoryFileRef[];
  skipped: SkippedFile[];
}

/**
 * The memory paths of a workspace: MEMORY.md (or the older memory.md), USER.md, every `.md`
 * under `memory/`, and `extraPaths` (files or folders, relative to the workspace or absolute).
 * A symlink counts only when it resolves inside the workspace or an extra path; oversized files
 * are listed as skipped. Content checks (binary, not UTF-8, empty) happen when a file is read.
 */
export async function listMemoryFiles(workspaceDir: string, extraPaths: readonly string[]): Promise<MemoryFileListing> {
  const files = new Map<string, MemoryFileRef>();
  const skipped: SkippedFile[] = [];
  const roots = await allowedRoots(workspaceDir, extraPaths);

  // `linkChecked`: the directory listing already said this is no symlink, so one stat is enough.
  const consider = async (absPath: string, linkChecked = false): Promise<void> => {
    const relPath = memoryRelPath(workspaceDir, absPath);
    if (files.has(relPath)) return;
    let stat;
    try {
      if (!linkChecked && (await fs.lstat(absPath)).isSymbolicLink()) {
        const target = await fs.realpath(absPath);
        if (!roots.some((root) => isInside(root, target))) {
          skipped.push({ relPath, reason: "a symlink that leads out of the workspace" });
          return;
        }
      }
      stat = await fs.stat(absPath);
    } catch {
      return; // gone between listing and stat, or a dangling link: nothing to index
    }
    if (!stat.isFile()) return;
    const linked = hardLinkReason(stat);
    if (linked) {
      skipped.push({ relPath, reason: linked });
      return;
    }
    if (stat.size > MEMORY_MAX_FILE_BYTES) {
      skipped.push({ relPath, reason: `${(stat.size / 1024 / 1024).toFixed(1)} MB is over the ${MEMORY_MAX_FILE_BYTES / 1024 / 1024} MB limit for a memory file` });
      return;
    }
    files.set(relPath, { relPath, absPath, mtimeMs: Math.floor(stat.mtimeMs), size: stat.size });
  };

  for (const name of ROOT_FILES) {
    const absPath = path.join(workspaceDir, name);
    // memory.md is the older spelling: used only when MEMORY.md is absent.
    if (name === "memory.md" && files.has("MEMORY.md")) continue;
    await consider(absPath);
  }
  await walkMarkdown(path.join(workspaceDir, "memory"), consider);
  for (const extra of extraPaths) {
    const absPath = path.resolve(workspaceDir, extra);
    const stat = await fs.stat(absPath).catch(() => undefined);
    if (stat?.isDirectory()) await walkMarkdown(absPath, consider);
    else if (stat?.isFile()) await consider(absPath);
  }
  return { files: [...files.values()], skipped };
}

/**
 * Why a memory file is not read, or undefined: a second hard link can be a file outside the
 * workspace under a memory name, as for the file tools (docs/security.md, "File tools").
 */
export function hardLinkReason(stat: { nlink: number }): string | undefined {
  if (stat.nlink <= 1) return undefined;
  return `a file with ${stat.nlink} hard links (its content may be a file outside the workspace; a copy made with cp --remove-destination is read)`;
}

/** The key a file has in the index: relative to the workspace, or absolute when outside it. */
export function memoryRelPath(workspaceDir: string, absPath: string): string {
  const rel = path.relative(workspaceDir, absPath);
  return rel.startsWith("..") || path.isAbsolute(rel) ? absPath.split(path.sep).join("/") : rel.split(path.sep).join("/");
}

/** Roots a symlink may point into: the workspace and each extra path (resolved). */
async function allowedRoots(workspaceDir: string, extraPaths: readonly string[]): Promise<string[]> {
  const roots = [workspaceDir, ...extraPaths.map((p) => path.resolve(workspaceDir, p))];
  return Promise.all(roots.map((root) => fs.realpath(root).catch(() => root)));
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

async function walkMarkdown(dir: string, visit: (absPath: string, linkChecked: boolean) => Promise<void>, depth = 0): Promise<void> {
  if (depth > 8) return;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const absPath = path.join(dir, entry.name);
    if (entry.isDirectory()) await walkMarkdown(absPath, visit, depth + 1);
    else if (entry.name.toLowerCase().endsWith(".md") && (entry.isFile() || entry.isSymbolicLink())) await visit(absPath, entry.isFile());
  }
}

/** Why a file's bytes are not indexable text, or undefined when they are. */
export function unreadableReason(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return "a binary file (it contains NUL bytes)";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "not valid UTF-8 text";
  }
  return undefined;
}
