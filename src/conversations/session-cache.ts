import { LRUCache } from "lru-cache";

/**
 * A per-session value that belongs to one session id: a reset or deleted session starts a new
 * id, and its old value is never served. Least recently used sessions are let go past `max`.
 */
export class SessionCache<T> {
  private readonly entries: LRUCache<string, { sessionId: string; value: T }>;

  constructor(max: number) {
    this.entries = new LRUCache({ max });
  }

  /** The session's value for `sessionId`, marked as recently used; a stale one is dropped. */
  get(sessionKey: string, sessionId: string): T | undefined {
    const hit = this.entries.get(sessionKey);
    if (!hit) return undefined;
    if (hit.sessionId === sessionId) return hit.value;
    this.entries.delete(sessionKey);
    return undefined;
  }

  /** Like `get`, without changing the order; a stale value (or an unknown id) is dropped. */
  peek(sessionKey: string, sessionId: string | undefined): T | undefined {
    const hit = this.entries.peek(sessionKey);
    if (!hit) return undefined;
    if (hit.sessionId === sessionId) return hit.value;
    this.entries.delete(sessionKey);
    return undefined;
  }

  set(sessionKey: string, sessionId: string, value: T): void {
    this.entries.set(sessionKey, { sessionId, value });
  }

  delete(sessionKey: string): void {
    this.entries.delete(sessionKey);
  }
}
