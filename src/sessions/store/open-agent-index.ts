import fs from "node:fs";
import path from "node:path";
import type { SessionEntry } from "./session-entry.js";
import { indexFile, sessionsDir } from "./session-paths.js";
import { loadIndexFile, reviveEntry, saveIndexFile } from "./index-file.js";
import { listLiveTranscripts, rebuildEntriesFromTranscripts, restoreUnindexedTranscripts } from "./rebuild-index.js";
import { archiveFile, writeFreshTranscript } from "./transcript-writer.js";

export interface OpenAgentIndexContext {
  stateDir: string;
  agentId: string;
  now: number;
  /** cwd for headers written during recovery. */
  cwd: string;
  warn: (message: string) => void;
}

// Temp files of writeFileAtomicSync (`.<name>.<pid>.<hex>.tmp`) left by a process that died mid-write.
const STALE_TEMP = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Loads one agent's index and repairs what a crash or a hand edit can leave behind:
 * - temp files of an interrupted atomic write (older than a minute) are removed;
 * - a corrupt index is kept as `sessions.json.corrupt.<ts>` and rebuilt from transcript headers;
 * - a missing index next to existing transcripts is rebuilt the same way;
 * - sessions created after the index was last written are restored from their headers;
 * - an entry whose transcript is gone gets a fresh header, so appends have a valid file.
 * Each repair is reported through `warn`.
 */
export function openAgentIndex(ctx: OpenAgentIndexContext): Map<string, SessionEntry> {
  const dir = sessionsDir(ctx.stateDir, ctx.agentId);
  if (!fs.existsSync(dir)) return new Map();
  removeStaleTempFiles(dir, ctx.now);
  const file = indexFile(ctx.stateDir, ctx.agentId);
  const loaded = loadIndexFile(file);

  let entries: Map<string, SessionEntry>;
  if (loaded.kind === "ok") {
    entries = new Map();
    let invalid = 0;
    for (const [key, value] of Object.entries(loaded.raw)) {
      const entry = reviveEntry(dir, ctx.agentId, key, value);
      if (typeof entry === "string") {
        invalid += 1;
        ctx.warn(`${file}: ${entry}; rebuilding it from its transcript`);
      } else entries.set(key, entry);
    }
    // A row that could not be read may belong to a session of any age; otherwise only sessions
    // started after the index's content was taken can be missing from it.
    const restored = restoreUnindexedTranscripts(ctx.stateDir, ctx.agentId, dir, entries, invalid > 0 ? Number.NEGATIVE_INFINITY : loaded.writtenAt);
    if (invalid > 0 || restored.length > 0) {
      saveIndexFile(file, entries, ctx.now);
      const keys = `${restored.slice(0, 5).join(", ")}${restored.length > 5 ? ", …" : ""}`;
      ctx.warn(
        invalid > 0
          ? `${file}: restored ${restored.length} session(s) from transcript headers`
          : `${file}: restored ${restored.length} session(s) created after it was last written, from their transcript headers (${keys})`,
      );
    }
  } else if (loaded.kind === "corrupt" || listLiveTranscripts(dir).length > 0) {
    const kept = loaded.kind === "corrupt" ? archiveFile(file, "corrupt", ctx.now) : undefined;
    entries = rebuildEntriesFromTranscripts(ctx.stateDir, ctx.agentId, dir, ctx.warn);
    saveIndexFile(file, entries, ctx.now);
    ctx.warn(
      loaded.kind === "corrupt"
        ? `${file} was ${loaded.reason}; rebuilt ${entries.size} session(s) from transcript headers (old file kept as ${path.basename(kept ?? "")})`
        : `${file} was missing; rebuilt ${entries.size} session(s) from transcript headers`,
    );
  } else {
    return new Map();
  }

  for (const entry of entries.values()) {
    if (fs.existsSync(entry.sessionFile)) continue;
    writeFreshTranscript(entry, ctx.cwd, ctx.now);
    ctx.warn(`${entry.sessionKey}: transcript ${entry.sessionFile} was missing; started it again with a fresh header`);
  }
  return entries;
}

/** Only temp files older than a minute: a younger one may belong to another process writing right now. */
function removeStaleTempFiles(dir: string, now: number): void {
  for (const name of fs.readdirSync(dir)) {
    if (!STALE_TEMP.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > 60_000) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  }
}
