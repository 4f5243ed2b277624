import fs from "node:fs";
import path from "node:path";
import { symlinkStaysInside } from "./archive-layout.js";
import type { BackupRoot, BackupSources } from "./backup-sources.js";
import type { EntryCapture } from "./manifest.js";
import { isSqliteFile, sqliteSidecarOf } from "./sqlite-files.js";

export type PlannedEntry =
  | { type: "directory"; sourcePath: string; archivePath: string; mode: number }
  | { type: "symlink"; sourcePath: string; archivePath: string; target: string }
  /** `size`: as found while planning (a SQLite database's main file; the snapshot's size is known once taken). */
  | { type: "file"; sourcePath: string; archivePath: string; capture: EntryCapture; size: number; mode: number; followLink: boolean };

export interface SkippedPath {
  sourcePath: string;
  reason: string;
}

export interface BackupPlan {
  entries: PlannedEntry[];
  skipped: SkippedPath[];
}

/**
 * Lists what the archive will hold, walking each root without following symbolic links (a link
 * is kept as a link when it stays inside its folder, else reported and left out). SQLite
 * databases are recognised by their header wherever they are, and their `-wal`, `-shm` and
 * `-journal` files are left out: the snapshot holds the committed data. Files ending in `.jsonl`
 * are taken up to their last complete line. Sockets, FIFOs and devices are reported and left
 * out. A file that disappears during the walk is reported as vanished.
 */
export function planBackup(sources: BackupSources): BackupPlan {
  const plan: BackupPlan = { entries: [], skipped: [] };
  const pinned = new Set(sources.pinned.map((file) => file.location));
  for (const root of sources.roots) {
    if (root.directory) walkRoot(root, pinned, plan);
  }
  for (const file of sources.pinned) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file.location);
    } catch {
      plan.skipped.push({ sourcePath: file.location, reason: "vanished before it was read" });
      continue;
    }
    if (!stat.isFile()) throw new Error(`config file ${file.location} is not a regular file`);
    plan.entries.push({ type: "file", sourcePath: file.location, archivePath: file.archivePath, capture: "file", size: stat.size, mode: stat.mode & 0o777, followLink: true });
  }
  return plan;
}

function walkRoot(root: BackupRoot, pinned: Set<string>, plan: BackupPlan): void {
  const stat = fs.statSync(root.sourcePath);
  plan.entries.push({ type: "directory", sourcePath: root.sourcePath, archivePath: root.archivePath, mode: stat.mode & 0o777 });
  walkDir(root.sourcePath, root.archivePath, root, pinned, plan);
}

function walkDir(dir: string, archiveDir: string, root: BackupRoot, pinned: Set<string>, plan: BackupPlan): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return void plan.skipped.push({ sourcePath: dir, reason: "vanished before it was read" });
    throw err;
  }
  for (const name of names) {
    const sourcePath = path.join(dir, name);
    const archivePath = `${archiveDir}/${name}`;
    if (root.excluded.has(sourcePath)) {
      const reason = root.excluded.get(sourcePath);
      if (reason) plan.skipped.push({ sourcePath, reason });
      continue;
    }
    if (pinned.has(sourcePath)) continue;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(sourcePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        plan.skipped.push({ sourcePath, reason: "vanished before it was read" });
        continue;
      }
      throw err;
    }
    if (stat.isDirectory()) {
      plan.entries.push({ type: "directory", sourcePath, archivePath, mode: stat.mode & 0o777 });
      walkDir(sourcePath, archivePath, root, pinned, plan);
    } else if (stat.isSymbolicLink()) {
      const target = fs.readlinkSync(sourcePath);
      if (symlinkStaysInside(archivePath, target, root.archivePath)) plan.entries.push({ type: "symlink", sourcePath, archivePath, target });
      else plan.skipped.push({ sourcePath, reason: `symbolic link to ${target} leads outside ${root.sourcePath}` });
    } else if (stat.isFile()) {
      const sidecar = sqliteSidecarOf(sourcePath);
      if (sidecar) plan.skipped.push({ sourcePath, reason: sidecar });
      else plan.entries.push({ type: "file", sourcePath, archivePath, capture: captureOf(sourcePath), size: stat.size, mode: stat.mode & 0o777, followLink: false });
    } else {
      plan.skipped.push({ sourcePath, reason: "not a regular file (socket, FIFO or device)" });
    }
  }
}

function captureOf(file: string): EntryCapture {
  if (isSqliteFile(file)) return "sqlite";
  return file.endsWith(".jsonl") ? "jsonl" : "file";
}
