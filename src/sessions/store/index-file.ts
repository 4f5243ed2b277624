import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { formatSessionKey, parseSessionKey } from "../keys/index.js";
import { isValidSessionId, TRANSCRIPT_SUFFIX } from "./session-paths.js";
import type { SessionEntry } from "./session-entry.js";

/**
 * `sessions.json`: an object keyed by session key. Written whole, atomically, so it is always
 * valid JSON on disk; read defensively, because it is also a file users and tools edit.
 */

/**
 * `writtenAt`: the file's mtime, which the store sets to the moment its content was taken
 * (`saveIndexFile`, AgentIndexes): a session created after it may be missing from it.
 */
export type IndexLoad = { kind: "ok"; raw: Record<string, unknown>; writtenAt: number } | { kind: "missing" } | { kind: "corrupt"; reason: string };

export function loadIndexFile(file: string): IndexLoad {
  let text: string;
  let writtenAt: number;
  try {
    text = fs.readFileSync(file, "utf8");
    writtenAt = fs.statSync(file).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "corrupt", reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: "corrupt", reason: `invalid JSON (${(err as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "corrupt", reason: "not a JSON object" };
  return { kind: "ok", raw: value as Record<string, unknown>, writtenAt };
}

/**
 * Compact JSON: the whole file is rewritten on every structural change, and with a thousand
 * sessions indentation alone costs about a third of the bytes and of the serialize time.
 * `jq . sessions.json` shows it indented.
 */
export function saveIndexFile(file: string, entries: ReadonlyMap<string, SessionEntry>, takenAt: number): void {
  writeFileAtomicSync(file, serializeIndex(entries), 0o600, takenAt);
}

/**
 * The index as written: serialized now (a snapshot), so later changes are not half-included.
 * Entries in `unlisted` (one-off sessions) are left out.
 */
export function serializeIndex(entries: ReadonlyMap<string, SessionEntry>, unlisted?: WeakSet<SessionEntry>): string {
  const out: Record<string, SessionEntry> = {};
  for (const [key, entry] of entries) if (!unlisted?.has(entry)) out[key] = entry;
  return `${JSON.stringify(out)}\n`;
}

/**
 * Turns one stored row into a SessionEntry, or explains why it cannot be trusted. The key must
 * belong to this agent, the sessionId must look like one we generate, and `sessionFile` is
 * re-derived from the id: a path read from disk never decides where the store writes.
 */
export function reviveEntry(sessionsDirPath: string, agentId: string, key: string, value: unknown): SessionEntry | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `entry "${key}" is not an object`;
  let parsed;
  try {
    parsed = parseSessionKey(key);
  } catch (err) {
    return `entry "${key.slice(0, 80)}": ${(err as Error).message}`;
  }
  if (parsed.agentId !== agentId || formatSessionKey(parsed) !== key) {
    return `entry "${key}" does not belong in agent ${agentId}'s index`;
  }
  const row = value as Record<string, unknown>;
  if (!isValidSessionId(row.sessionId)) return `entry "${key}" has no valid sessionId`;
  const updatedAt = finiteOr(row.updatedAt, 0);
  return {
    ...row,
    sessionId: row.sessionId,
    sessionKey: key,
    agentId,
    // The id pattern admits no separators or dot-only names, so joining cannot leave the directory.
    sessionFile: path.join(sessionsDirPath, `${row.sessionId}${TRANSCRIPT_SUFFIX}`),
    updatedAt,
    sessionStartedAt: finiteOr(row.sessionStartedAt, updatedAt),
    inputTokens: finiteOr(row.inputTokens, 0),
    outputTokens: finiteOr(row.outputTokens, 0),
    totalTokens: finiteOr(row.totalTokens, 0),
    messageCount: finiteOr(row.messageCount, 0),
  };
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
