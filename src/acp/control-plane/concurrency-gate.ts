/**
 * At most `limit()` holders at once; the rest wait in arrival order. The limit is read on every
 * release, so a config reload that raises it lets waiters in.
 */
export class ConcurrencyGate {
  private held = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly limit: () => number) {}

  get active(): number {
    return this.held;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves with a release function once a slot is free; rejects if the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.held -= 1;
          this.pump();
        });
      };
      if (this.held < this.limit() && this.waiters.length === 0) return grant();
      const waiter = () => {
        signal?.removeEventListener("abort", onAbort);
        grant();
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal!.reason instanceof Error ? signal!.reason : new Error("aborted while waiting for an ACP slot"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private pump(): void {
    while (this.held < this.limit() && this.waiters.length > 0) this.waiters.shift()!();
  }
}
