import { isAcpSessionKey, isCronRunSessionKey, isHttpStatelessSessionKey, isSubagentSessionKey, isWebhookRunSessionKey } from "../keys/index.js";
import type { SessionEntry } from "./session-entry.js";

export interface PruneOptions {
  /** Remove sessions not updated within this many ms. */
  maxAgeMs?: number;
  /** Keep at most this many sessions per agent; the least recently updated go first. */
  maxEntries?: number;
  /** Chat sessions updated within this many ms are kept, by both rules (`session.maintenance.preserveRecent`). */
  preserveRecentMs?: number;
  /** Sessions never removed (`openclaw sessions cleanup --active-key`); they still count toward `maxEntries`. */
  protectedKeys?: readonly string[];
}

/**
 * Why a pass keeps a session: the first protection that applies to it (`active-key`: the caller
 * protected it; `running`: a run holds its writer claim; `pinned`; `recent`: `preserveRecentMs`),
 * else `within-limits` (neither rule chose it).
 */
export type KeepReason = "active-key" | "running" | "pinned" | "recent" | "within-limits";

/** What a pass does with one session (its transcript named too): archive it for its age (`maxAgeMs`) or for the cap (`maxEntries`), or keep it. */
export type PruneVerdict = { key: string; updatedAt: number; sessionFile: string } & ({ action: "archive-age" | "archive-cap" } | { action: "keep"; reason: KeepReason });

/** Sessions the runtime made for one job (a cron or webhook run, a sub-agent, an ACP agent, an isolated heartbeat, an anonymous HTTP request). */
function isRuntimeSession(sessionKey: string): boolean {
  return (
    isCronRunSessionKey(sessionKey) ||
    isWebhookRunSessionKey(sessionKey) ||
    isHttpStatelessSessionKey(sessionKey) ||
    isSubagentSessionKey(sessionKey) ||
    isAcpSessionKey(sessionKey) ||
    sessionKey.endsWith(":heartbeat")
  );
}

/**
 * Decides, for each of one agent's sessions, whether to archive it. Protected sessions (see
 * KeepReason) are never chosen: removing them would cut off a conversation in progress, one the
 * user asked to keep, or one people are talking in. They still count toward `maxEntries`. Over
 * `maxEntries`, the sessions one request made for itself (anonymous HTTP requests, webhook runs)
 * go first, whatever their age: a flood of them never evicts a chat's session. With
 * `preserveRecentMs`, a session people talk in that was updated within it is kept too (the store
 * may then stay above `maxEntries` for a while); the runtime's own sessions stay removable.
 *
 * One verdict per entry: those archived for their age first (in `entries` order), then those
 * archived for the cap (in the order the cap chose them), then the kept ones (in `entries` order).
 */
export function planPrune(entries: readonly SessionEntry[], options: PruneOptions, now: number): PruneVerdict[] {
  const protection = (e: SessionEntry): KeepReason | undefined => {
    if (options.protectedKeys?.includes(e.sessionKey)) return "active-key";
    if (e.activeWriterRunId) return "running";
    if (e.pinnedAt !== undefined) return "pinned";
    if (options.preserveRecentMs !== undefined && now - e.updatedAt <= options.preserveRecentMs && !isRuntimeSession(e.sessionKey)) return "recent";
    return undefined;
  };
  const removable = (e: SessionEntry) => protection(e) === undefined;
  const archived: PruneVerdict[] = [];
  const chosen = new Set<string>();
  const archive = (e: SessionEntry, action: "archive-age" | "archive-cap") => {
    chosen.add(e.sessionKey);
    archived.push({ key: e.sessionKey, updatedAt: e.updatedAt, sessionFile: e.sessionFile, action });
  };
  if (options.maxAgeMs !== undefined) {
    for (const e of entries) if (removable(e) && now - e.updatedAt > options.maxAgeMs) archive(e, "archive-age");
  }
  if (options.maxEntries !== undefined) {
    let remaining = entries.length - chosen.size;
    const disposableFirst = (e: SessionEntry) => (isHttpStatelessSessionKey(e.sessionKey) || isWebhookRunSessionKey(e.sessionKey) ? 0 : 1);
    const oldestFirst = entries.filter((e) => !chosen.has(e.sessionKey) && removable(e)).sort((a, b) => disposableFirst(a) - disposableFirst(b) || a.updatedAt - b.updatedAt);
    for (const e of oldestFirst) {
      if (remaining <= Math.max(0, options.maxEntries)) break;
      archive(e, "archive-cap");
      remaining -= 1;
    }
  }
  const kept = entries
    .filter((e) => !chosen.has(e.sessionKey))
    .map((e): PruneVerdict => ({ key: e.sessionKey, updatedAt: e.updatedAt, sessionFile: e.sessionFile, action: "keep", reason: protection(e) ?? "within-limits" }));
  return [...archived, ...kept];
}
