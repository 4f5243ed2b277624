import { LRUCache } from "lru-cache";

/**
 * Answers a tool keeps in this process (web_search, web_fetch), by key. An entry is reused only
 * while it is younger than the TTL in force when it is read: a shorter TTL limits reuse of what is
 * already kept, a longer one never stretches an entry past the TTL it was stored with. A TTL of 0
 * neither reads nor keeps.
 */
type Kept<T> = { value: T; storedAt: number };

export class AnswerCache<T extends object> {
  private readonly entries: LRUCache<string, Kept<T>>;

  constructor(options: { max: number; maxSize?: number; sizeOf?: (value: T) => number }) {
    const sizeOf = options.sizeOf;
    this.entries = new LRUCache<string, Kept<T>>({
      max: options.max,
      ...(options.maxSize && sizeOf ? { maxSize: options.maxSize, sizeCalculation: (entry: Kept<T>) => sizeOf(entry.value) } : {}),
    });
  }

  get(key: string, ttlMs: number, now = Date.now()): { value: T; ageMs: number } | undefined {
    if (ttlMs <= 0) return undefined;
    const entry = this.entries.get(key);
    if (!entry || now - entry.storedAt >= ttlMs) return undefined;
    return { value: entry.value, ageMs: now - entry.storedAt };
  }

  set(key: string, value: T, ttlMs: number, now = Date.now()): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, { value, storedAt: now }, { ttl: ttlMs });
  }
}
