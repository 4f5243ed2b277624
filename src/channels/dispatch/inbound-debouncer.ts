/**
 * `messages.inbound.debounceMs`: a burst of texts from one sender becomes one turn. Each
 * message's `add` resolves only when the merged turn was submitted, so an adapter that waits
 * for it before committing its platform offset never acknowledges a message still in memory.
 */
export class InboundDebouncer<T> {
  private readonly pending = new Map<string, { items: T[]; waiters: { resolve: () => void; reject: (e: unknown) => void }[]; timer: NodeJS.Timeout }>();

  constructor(private readonly flush: (items: T[]) => Promise<void>) {}

  add(key: string, item: T, windowMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let batch = this.pending.get(key);
      if (batch) clearTimeout(batch.timer);
      else {
        batch = { items: [], waiters: [], timer: undefined as unknown as NodeJS.Timeout };
        this.pending.set(key, batch);
      }
      batch.items.push(item);
      batch.waiters.push({ resolve, reject });
      const current = batch;
      current.timer = setTimeout(() => {
        this.pending.delete(key);
        this.flush(current.items).then(
          () => current.waiters.forEach((w) => w.resolve()),
          (err) => current.waiters.forEach((w) => w.reject(err)),
        );
      }, windowMs);
    });
  }
}
