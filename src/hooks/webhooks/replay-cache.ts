/**
 * Answers given to requests that carried an `Idempotency-Key`: the same key within `ttlMs` gets
 * the same answer and does nothing again. Bounded: the oldest keys go first.
 */
export class ReplayCache<T> {
  private readonly answers = new Map<string, { at: number; value: T }>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly ttlMs = 24 * 60 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): T | undefined {
    const hit = this.answers.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.at > this.ttlMs) {
      this.answers.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: T): void {
    this.answers.delete(key);
    this.answers.set(key, { at: this.now(), value });
    while (this.answers.size > this.maxEntries) this.answers.delete(this.answers.keys().next().value!);
  }
}
