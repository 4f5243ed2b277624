import fs from "node:fs";
import path from "node:path";
import { fsyncDirectory, linkOrCopyExclusive, writeFileAtomicSync } from "../../infra/atomic-file.js";
import { archiveName, type ArchiveKind } from "./session-paths.js";
import { buildHeader, toJsonLines } from "./transcript-lines.js";

/**
 * Where transcript files are created, replaced and archived. Appends go through the store's
 * AppendFiles (a write, then an fsync before the store acknowledges; never O_CREAT, so a
 * vanished transcript is never recreated without its header). Replacing a file (rotation,
 * a lost transcript restarted) goes through temp-file + rename, so a reader sees the old file or
 * the new one, never half of either; a brand-new transcript is an exclusive create.
 */

/** Creates (or atomically replaces) a transcript with `text`, durable before returning. */
export function writeTranscriptAtomically(file: string, text: string): void {
  writeFileAtomicSync(file, text, 0o600);
}

/**
 * Renames `file` to `<file>.<kind>.<ts>` (reset, delete, corrupt index). Returns the archive
 * path, or undefined when there was nothing to archive.
 */
export function archiveFile(file: string, kind: ArchiveKind, now: number): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  const target = archiveName(file, kind, now, fs.existsSync);
  fs.renameSync(file, target);
  fsyncDirectory(path.dirname(file));
  return target;
}

/**
 * Keeps the current content of `file` under an archive name while `file` itself stays in place,
 * so it can then be replaced atomically (rotation): at every instant the live path holds a full
 * transcript. A hard link costs nothing; filesystems without links get a copy.
 */
export function preserveCopy(file: string, kind: ArchiveKind, now: number): string {
  const target = archiveName(file, kind, now, fs.existsSync);
  linkOrCopyExclusive(file, target);
  fsyncDirectory(path.dirname(file));
  return target;
}

/** Starts (or restarts) a transcript with just its header, durably. */
export function writeFreshTranscript(session: { sessionId: string; sessionFile: string; sessionKey: string; agentId: string }, cwd: string, now: number): void {
  const header = buildHeader({ sessionId: session.sessionId, cwd, now, sessionKey: session.sessionKey, agentId: session.agentId });
  writeTranscriptAtomically(session.sessionFile, toJsonLines([header]));
}

/**
 * Creates a brand-new transcript (a fresh uuid, so nothing to replace): exclusive create, one
 * write, then (when `durable`) one fsync and the directory's fsync for the new name. A durable
 * header is on disk when this returns: a plain session's index row is written later
 * (coalesced), and until then the header is the session's record (restoreUnindexedTranscripts).
 * A crash mid-create leaves a file without a valid header, which nothing restores. Without
 * `durable` the caller makes it durable later (SessionStore.ensure with deferSync) or never (a
 * one-off session's transcript is not meant to outlive its turn).
 */
export function createTranscript(session: { sessionId: string; sessionFile: string; sessionKey: string; agentId: string }, cwd: string, now: number, durable = true): void {
  const header = buildHeader({ sessionId: session.sessionId, cwd, now, sessionKey: session.sessionKey, agentId: session.agentId });
  const bytes = Buffer.from(toJsonLines([header]), "utf8");
  const fd = fs.openSync(session.sessionFile, "wx", 0o600);
  try {
    let offset = 0;
    while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (durable) fsyncDirectory(path.dirname(session.sessionFile));
}
