/**
 * Replies waiting for their channel account to run again (a config reload restarts it, a start
 * is still connecting). The channel manager calls `notify` whenever an account started, failed
 * to start or was removed; each waiter then looks at the account again.
 */
export class AccountWaits {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Resolves at the next `notify` for this account, after `ms`, or when `signal` aborts, whichever comes first. */
  next(channel: string, accountId: string, ms: number, signal: AbortSignal): Promise<void> {
    const key = accountKey(channel, accountId);
    return new Promise((resolve) => {
      const set = this.waiters.get(key) ?? new Set();
      this.waiters.set(key, set);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      signal.addEventListener("abort", done, { once: true });
      set.add(done);
      if (signal.aborted) done();
    });
  }

  notify(channel: string, accountId: string): void {
    for (const done of [...(this.waiters.get(accountKey(channel, accountId)) ?? [])]) done();
  }
}

function accountKey(channel: string, accountId: string): string {
  return `${channel}|${accountId}`;
}
