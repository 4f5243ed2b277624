import { isAcpSessionKey, isCronRunSessionKey, isHttpStatelessSessionKey, isSubagentSessionKey, isWebhookRunSessionKey } from "../keys/index.js";
import type { SessionEntry } from "./session-entry.js";

export interface PruneOptions {
  /** Remove sessions not updated within this many ms. */
  maxAgeMs?: number;
  /** Keep at most this many sessions per agent; the least recently updated go first. */
  maxEntries?: number;
  /** Chat sessions updated within this many ms are kept, by both rules (`session.maintenance.preserveRecent`). */
  preserveRecentMs?: number;
}

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
 * Chooses which of one agent's sessions to remove. Sessions with an active run or a pin are
 * never chosen: removing them would cut off a conversation in progress or one the user asked to
 * keep. They still count toward `maxEntries`. Over `maxEntries`, the sessions one request made
 * for itself (anonymous HTTP requests, webhook runs) go first, whatever their age: a flood of
 * them never evicts a chat's session. With `preserveRecentMs`, a session people talk in that was
 * updated within it is kept too (the store may then stay above `maxEntries` for a while); the
 * runtime's own sessions stay removable.
 */
export function planPrune(entries: readonly SessionEntry[], options: PruneOptions, now: number): string[] {
  const preserved = (e: SessionEntry) => options.preserveRecentMs !== undefined && now - e.updatedAt <= options.preserveRecentMs && !isRuntimeSession(e.sessionKey);
  const removable = (e: SessionEntry) => !e.activeWriterRunId && e.pinnedAt === undefined && !preserved(e);
  const remove = new Set<string>();
  if (options.maxAgeMs !== undefined) {
    for (const e of entries) if (removable(e) && now - e.updatedAt > options.maxAgeMs) remove.add(e.sessionKey);
  }
  if (options.maxEntries !== undefined) {
    let remaining = entries.length - remove.size;
    const disposableFirst = (e: SessionEntry) => (isHttpStatelessSessionKey(e.sessionKey) || isWebhookRunSessionKey(e.sessionKey) ? 0 : 1);
    const oldestFirst = entries.filter((e) => !remove.has(e.sessionKey) && removable(e)).sort((a, b) => disposableFirst(a) - disposableFirst(b) || a.updatedAt - b.updatedAt);
    for (const e of oldestFirst) {
      if (remaining <= Math.max(0, options.maxEntries)) break;
      remove.add(e.sessionKey);
      remaining -= 1;
    }
  }
  return [...remove];
}
