/**
 * A per-session value that belongs to one session id: a reset or deleted session starts a new
 * id, and its old value is never served. Least recently used sessions are let go past `max`.
 */
export class SessionCache<T> {
  private readonly entries = new Map<string, { sessionId: string; value: T }>();

  constructor(private readonly max: number) {}

  /** The session's value for `sessionId`, marked as recently used; a stale one is dropped. */
  get(sessionKey: string, sessionId: string): T | undefined {
    const hit = this.entries.get(sessionKey);
    if (!hit) return undefined;
    this.entries.delete(sessionKey);
    if (hit.sessionId !== sessionId) return undefined;
    this.entries.set(sessionKey, hit);
    return hit.value;
  }

  /** Like `get`, without changing the order; a stale value (or an unknown id) is dropped. */
  peek(sessionKey: string, sessionId: string | undefined): T | undefined {
    const hit = this.entries.get(sessionKey);
    if (!hit) return undefined;
    if (hit.sessionId === sessionId) return hit.value;
    this.entries.delete(sessionKey);
    return undefined;
  }

  set(sessionKey: string, sessionId: string, value: T): void {
    this.entries.delete(sessionKey);
    this.entries.set(sessionKey, { sessionId, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(sessionKey: string): void {
    this.entries.delete(sessionKey);
  }
}
