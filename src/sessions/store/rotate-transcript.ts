import fs from "node:fs";
import path from "node:path";
import { selectCarryOver } from "./rotation-carry-over.js";
import type { SessionEntry } from "./session-entry.js";
import { buildHeader, toJsonLines } from "./transcript-lines.js";
import { readTranscriptFile } from "./transcript-reader.js";
import { preserveCopy, writeTranscriptAtomically } from "./transcript-writer.js";

export interface RotateOptions {
  /** Bytes of recent history to carry into the new file; a quarter of maxBytes by default. */
  keepBytes?: number;
  /** When given, the rotation is fenced like an append. */
  runId?: string | null;
}

export type RotateResult =
  | { rotated: false; bytes: number }
  | { rotated: true; bytes: number; archivedTo: string; keptEntries: number; droppedEntries: number; lastEntryId: string | null };

/**
 * Size rotation. When the transcript exceeds `maxBytes` it is archived as
 * `<file>.rotated.<ts>` and continues in a fresh file under the SAME sessionId: the
 * conversation goes on, and a new id would look like a reset to clients and reset policies.
 * The new header names the archive (`rotatedFrom`) and is followed by the latest compaction
 * summary and the newest history that fits `keepBytes`. The live path always holds a complete
 * transcript: the archive is a hard link (or copy) taken before the atomic replace.
 */
export function rotateTranscript(entry: SessionEntry, maxBytes: number, keepBytes: number, now: number, fallbackCwd: string): RotateResult {
  let bytes: number;
  try {
    bytes = fs.statSync(entry.sessionFile).size;
  } catch {
    return { rotated: false, bytes: 0 };
  }
  if (bytes <= maxBytes) return { rotated: false, bytes };

  const { header: oldHeader, entries } = readTranscriptFile(entry.sessionFile);
  const carried = selectCarryOver(entries, keepBytes);
  const archivedTo = preserveCopy(entry.sessionFile, "rotated", now);
  const header = buildHeader({
    sessionId: entry.sessionId,
    cwd: oldHeader?.cwd ?? fallbackCwd,
    now,
    sessionKey: entry.sessionKey,
    agentId: entry.agentId,
    extra: { ...(oldHeader?.parentSession ? { parentSession: oldHeader.parentSession } : {}), rotatedFrom: path.basename(archivedTo) },
  });
  writeTranscriptAtomically(entry.sessionFile, toJsonLines([header, ...carried]));
  return {
    rotated: true,
    bytes,
    archivedTo,
    keptEntries: carried.length,
    droppedEntries: entries.length - carried.length,
    lastEntryId: carried[carried.length - 1]?.id ?? null,
  };
}
