import fs from "node:fs";
import path from "node:path";
import { formatSessionKey, parseSessionKey } from "../keys/index.js";
import type { SessionEntry } from "./session-entry.js";
import { isValidSessionId, transcriptFile, TRANSCRIPT_SUFFIX } from "./session-paths.js";
import { isMessageEntry } from "./transcript-lines.js";
import { readTranscriptFile, readTranscriptHeader } from "./transcript-reader.js";
import { withdrawnEntryIds } from "./withdrawn-messages.js";

/**
 * Rebuilds an agent's index from its live transcripts (`<sessionId>.jsonl`; archives are
 * ignored). Each header names its session key, so the mapping comes back exactly; counters are
 * recounted from the lines. Settings kept only in the index (labels, overrides) are lost — the
 * conversations are not. This path runs only after the index was lost or corrupted.
 */
export function rebuildEntriesFromTranscripts(stateDir: string, agentId: string, dir: string, warn: (message: string) => void): Map<string, SessionEntry> {
  const byKey = new Map<string, SessionEntry>();
  for (const name of listLiveTranscripts(dir)) {
    const sessionId = name.slice(0, -TRANSCRIPT_SUFFIX.length);
    const file = path.join(dir, name);
    const header = readTranscriptHeader(file);
    const key = header && header.id === sessionId ? ownedKey(header.sessionKey, agentId) : undefined;
    if (!key || !isValidSessionId(sessionId)) {
      warn(`${file}: no usable session header (sessionKey for agent ${agentId}); not restored`);
      continue;
    }
    const entry = entryFromTranscript(stateDir, agentId, key, sessionId, file, Date.parse(header!.timestamp));
    const existing = byKey.get(key);
    if (existing) {
      // Two live transcripts for one key: a reset was interrupted. The newer one is current.
      const [keep, drop] = existing.sessionStartedAt >= entry.sessionStartedAt ? [existing, entry] : [entry, existing];
      warn(`${key}: transcripts ${keep.sessionId} and ${drop.sessionId} both claim it; keeping the newer ${keep.sessionId}`);
      byKey.set(key, keep);
    } else {
      byKey.set(key, entry);
    }
  }
  return byKey;
}

/**
 * Sessions created after the index was last written come back from their transcript headers:
 * a plain session's row reaches the index coalesced (SessionStore.ensure), so a crash can come
 * first. Such a transcript is live, no entry points at it, its header names a key the index
 * lacks, and it was started no earlier than the index's content was taken (`indexTakenAt`, the
 * file's mtime). An older transcript nothing points at belonged to a session that was removed
 * while its file could not be archived; it is left alone. With `indexTakenAt` -Infinity (a row
 * of the index could not be read, and its session may be of any age) every such transcript is
 * restored. Returns the restored keys.
 */
export function restoreUnindexedTranscripts(stateDir: string, agentId: string, dir: string, entries: Map<string, SessionEntry>, indexTakenAt: number): string[] {
  const referenced = new Set<string>();
  for (const entry of entries.values()) referenced.add(path.basename(entry.sessionFile));
  const restored = new Map<string, SessionEntry>();
  for (const name of listLiveTranscripts(dir)) {
    if (referenced.has(name)) continue;
    const sessionId = name.slice(0, -TRANSCRIPT_SUFFIX.length);
    if (!isValidSessionId(sessionId)) continue;
    const file = path.join(dir, name);
    const header = readTranscriptHeader(file);
    if (!header || header.id !== sessionId) continue;
    const key = ownedKey(header.sessionKey, agentId);
    const startedAt = Date.parse(header.timestamp);
    // Millisecond header times against a fractional mtime: a millisecond of slack for the rounding.
    if (!key || (entries.has(key) && !restored.has(key)) || !(startedAt >= indexTakenAt - 1)) continue;
    const entry = entryFromTranscript(stateDir, agentId, key, sessionId, file, startedAt);
    // Two for one key: the newer generation is the session.
    if ((restored.get(key)?.sessionStartedAt ?? Number.NEGATIVE_INFINITY) > entry.sessionStartedAt) continue;
    restored.set(key, entry);
    entries.set(key, entry);
  }
  return [...restored.keys()];
}

export function listLiveTranscripts(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((name) => name.endsWith(TRANSCRIPT_SUFFIX) && !name.startsWith("."));
  } catch {
    return [];
  }
}

function ownedKey(sessionKey: unknown, agentId: string): string | undefined {
  if (typeof sessionKey !== "string") return undefined;
  try {
    const parsed = parseSessionKey(sessionKey);
    return parsed.agentId === agentId ? formatSessionKey(parsed) : undefined;
  } catch {
    return undefined;
  }
}

function entryFromTranscript(stateDir: string, agentId: string, key: string, sessionId: string, file: string, startedAt: number): SessionEntry {
  const mtime = fs.statSync(file).mtimeMs;
  const { entries } = readTranscriptFile(file);
  // Withdrawn messages left the conversation: they are not counted.
  const withdrawn = withdrawnEntryIds(entries);
  let messageCount = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const entry of entries) {
    if (!isMessageEntry(entry) || withdrawn.has(entry.id)) continue;
    messageCount += 1;
    const usage = (entry.message as { usage?: Record<string, unknown> }).usage;
    if (usage) {
      inputTokens += num(usage.input) + num(usage.cacheRead) + num(usage.cacheWrite);
      outputTokens += num(usage.output);
    }
  }
  return {
    sessionId,
    sessionKey: key,
    agentId,
    sessionFile: transcriptFile(stateDir, agentId, sessionId),
    updatedAt: Math.round(mtime),
    sessionStartedAt: Number.isFinite(startedAt) ? startedAt : Math.round(mtime),
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    messageCount,
  };
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
