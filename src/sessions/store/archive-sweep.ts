import fs from "node:fs";
import path from "node:path";
import { TRANSCRIPT_SUFFIX, type ArchiveKind } from "./session-paths.js";

export interface ArchiveSweep {
  kinds: readonly ArchiveKind[];
  /** Only archives made before this time (ms), read from the archive's name. */
  before: number;
  /** Only archives whose header names a session key this accepts. */
  keyMatches: (sessionKey: string) => boolean;
}

// `<sessionId>.jsonl.<kind>.<YYYY-MM-DDTHH-MM-SS.mmmZ>[.<n>]` (archiveName writes it).
const ARCHIVE = new RegExp(`\\${TRANSCRIPT_SUFFIX}\\.([a-z]+)\\.(\\d{4}-\\d{2}-\\d{2}T\\d{2})-(\\d{2})-(\\d{2}(?:\\.\\d+)?Z)(?:\\.\\d+)?$`);

/**
 * The archived transcripts in `dir` that `sweep` selects: kind and age from the file's name,
 * then the session key from its header line (read only for archives old enough, through `keyOf`,
 * which may remember what it read: an archive never changes). A file whose header cannot be read
 * is never selected.
 */
export function selectArchives(dir: string, sweep: ArchiveSweep, keyOf: (file: string) => string | undefined = headerSessionKey): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const selected: string[] = [];
  for (const name of names) {
    const archive = archiveInfo(name);
    if (!archive || !sweep.kinds.includes(archive.kind)) continue;
    if (!(archive.archivedAt < sweep.before)) continue;
    const file = path.join(dir, name);
    const key = keyOf(file);
    if (key !== undefined && sweep.keyMatches(key)) selected.push(file);
  }
  return selected;
}

/** An archived transcript's kind and when it was archived, from its file name; undefined for any other file. */
export function archiveInfo(name: string): { kind: ArchiveKind; archivedAt: number } | undefined {
  const match = ARCHIVE.exec(name);
  if (!match) return undefined;
  const archivedAt = Date.parse(`${match[2]}:${match[3]}:${match[4]}`);
  return Number.isNaN(archivedAt) ? undefined : { kind: match[1] as ArchiveKind, archivedAt };
}

// One buffer for every header read: a sweep may read thousands, one after the other.
const headerBuffer = Buffer.alloc(8192);

/** The `sessionKey` of a transcript's header (its first line), or undefined when it has none. */
export function headerSessionKey(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const read = fs.readSync(fd, headerBuffer, 0, headerBuffer.length, 0);
    const text = headerBuffer.toString("utf8", 0, read);
    const end = text.indexOf("\n");
    const header = JSON.parse(end < 0 ? text : text.slice(0, end)) as { type?: unknown; sessionKey?: unknown };
    return header.type === "session" && typeof header.sessionKey === "string" ? header.sessionKey : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
