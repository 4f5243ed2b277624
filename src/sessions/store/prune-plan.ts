import { isHttpStatelessSessionKey, isWebhookRunSessionKey } from "../keys/index.js";
import type { SessionEntry } from "./session-entry.js";

export interface PruneOptions {
  /** Remove sessions not updated within this many ms. */
  maxAgeMs?: number;
  /** Keep at most this many sessions per agent; the least recently updated go first. */
  maxEntries?: number;
}

/**
 * Chooses which of one agent's sessions to remove. Sessions with an active run or a pin are
 * never chosen: removing them would cut off a conversation in progress or one the user asked to
 * keep. They still count toward `maxEntries`. Over `maxEntries`, the sessions one request made
 * for itself (anonymous HTTP requests, webhook runs) go first, whatever their age: a flood of
 * them never evicts a chat's session.
 */
export function planPrune(entries: readonly SessionEntry[], options: PruneOptions, now: number): string[] {
  const removable = (e: SessionEntry) => !e.activeWriterRunId && e.pinnedAt === undefined;
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
