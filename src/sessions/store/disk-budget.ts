import fs from "node:fs";
import path from "node:path";
import { archiveInfo } from "./archive-sweep.js";
import type { ArchiveKind } from "./session-paths.js";

/** One file of an agent's sessions folder, and its archive kind when it is an archived transcript. */
export interface FolderFile {
  file: string;
  bytes: number;
  archive?: { kind: ArchiveKind; archivedAt: number };
}

export interface DiskBudgetPlan {
  /** What the folder's files take now. */
  usedBytes: number;
  /** The archives to remove, in order. */
  remove: FolderFile[];
  /** What the folder takes once they are gone. */
  afterBytes: number;
}

/** Reset and deleted sessions' archives go first (tier 0), then the older generations rotation kept (tier 1). */
const EVICTION_TIER: Partial<Record<ArchiveKind, number>> = { reset: 0, deleted: 0, rotated: 1 };

/**
 * `session.maintenance.maxDiskBytes`: when a folder takes more than `maxBytes`, archives are
 * removed, by tier and oldest first within one, until it takes at most `highWaterBytes`. Live
 * transcripts, the session index and set-aside (`corrupt`) files are never chosen: a folder whose
 * live files alone exceed the budget stays above it.
 */
export function planDiskBudget(files: readonly FolderFile[], maxBytes: number, highWaterBytes: number): DiskBudgetPlan {
  const usedBytes = files.reduce((sum, f) => sum + f.bytes, 0);
  if (usedBytes <= maxBytes) return { usedBytes, remove: [], afterBytes: usedBytes };
  const candidates = files
    .filter((f) => f.archive && EVICTION_TIER[f.archive.kind] !== undefined)
    .sort((a, b) => EVICTION_TIER[a.archive!.kind]! - EVICTION_TIER[b.archive!.kind]! || a.archive!.archivedAt - b.archive!.archivedAt);
  const remove: FolderFile[] = [];
  let afterBytes = usedBytes;
  for (const candidate of candidates) {
    if (afterBytes <= highWaterBytes) break;
    remove.push(candidate);
    afterBytes -= candidate.bytes;
  }
  return { usedBytes, remove, afterBytes };
}

/**
 * What a folder holds once a pass's earlier steps are done, for a dry run that did not do them:
 * the archives those steps remove are gone, and the live transcripts of the sessions they archive
 * are archives made `now` (a `.deleted.<ts>` archive, the first tier to go).
 */
export function afterEarlierSteps(files: readonly FolderFile[], removed: ReadonlySet<string>, archived: ReadonlySet<string>, now: number): FolderFile[] {
  return files.filter((f) => !removed.has(f.file)).map((f) => (archived.has(f.file) ? { ...f, archive: { kind: "deleted" as const, archivedAt: now } } : f));
}

/** The regular files directly in `dir`, with their sizes; a file gone meanwhile is left out. */
export function folderFiles(dir: string): FolderFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return [];
    const archive = archiveInfo(name);
    return [{ file, bytes: stat.size, ...(archive ? { archive } : {}) }];
  });
}
