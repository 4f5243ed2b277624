/**
 * Batches index rewrites for high-frequency metadata (updatedAt, token counters, message
 * counts). Rewriting the whole `sessions.json` on every append would cost a full serialize
 * plus fsync per message; instead each agent's index is written at most once per `delayMs`.
 * This is safe because the transcript, appended and fsynced before an append returns, is the
 * record of the conversation: a crash loses at most `delayMs` of counter updates, never a
 * message. Structural changes (create, reset, delete) bypass this and are written
 * synchronously. The coalesced writes run in the background (their fsync off the event loop);
 * `flushNow` (shutdown) writes synchronously.
 */
export class CoalescedIndexWriter {
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** Background writes under way, each with when it began (`performance.now()`). */
  private readonly inFlight = new Map<Promise<void>, number>();
  private disposed = false;

  constructor(
    private readonly delayMs: number,
    private readonly writeAgent: (agentId: string) => void,
    private readonly writeAgentInBackground: (agentId: string) => Promise<void>,
    private readonly onError: (agentId: string, err: unknown) => void,
  ) {}

  /** Schedules a background write of the agent's index; after `dispose` it is only remembered for `flushNow`. */
  markDirty(agentId: string): void {
    this.dirty.add(agentId);
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => this.flushInBackground(), this.delayMs);
    // Pending metadata never keeps the process alive; close() flushes it on shutdown.
    this.timer.unref();
  }

  /**
   * Writes the agent's index in the background now instead of after the delay, for a change a
   * caller acknowledges only once it is on disk; resolves then, rejects if the write fails (the
   * agent is dirty again, so a later write retries it).
   */
  writeSoon(agentId: string): Promise<void> {
    this.dirty.delete(agentId);
    const write = this.writeAgentInBackground(agentId)
      .catch((err) => {
        this.markDirty(agentId);
        this.onError(agentId, err);
        throw err;
      })
      .finally(() => this.inFlight.delete(settledWrite));
    const settledWrite = write.catch(() => {});
    this.inFlight.set(settledWrite, performance.now());
    return write;
  }

  /** The agent's index was just written in full (a synchronous update); nothing is pending. */
  markClean(agentId: string): void {
    this.dirty.delete(agentId);
  }

  /** Writes every pending index now; throws the first failure (after trying the rest). */
  flushNow(): void {
    this.cancelTimer();
    let firstError: unknown;
    for (const agentId of [...this.dirty]) {
      try {
        this.writeAgent(agentId);
        this.dirty.delete(agentId);
      } catch (err) {
        firstError ??= err;
      }
    }
    if (firstError !== undefined) throw firstError;
  }

  /** No background write is scheduled from now on (one already under way finishes). */
  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  /** Resolves once no write is scheduled or under way (failed writes included). */
  async settled(): Promise<void> {
    while (this.timer || this.inFlight.size > 0) {
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.keys()]);
      else await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    }
  }

  /** How long the oldest background write has been under way, in milliseconds; 0 when none is. */
  oldestWriteAgeMs(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const startedAt of this.inFlight.values()) oldest = Math.min(oldest, startedAt);
    return oldest === Number.POSITIVE_INFINITY ? 0 : performance.now() - oldest;
  }

  /** Whether a change is waiting for its coalesced write. */
  hasPending(): boolean {
    return this.dirty.size > 0;
  }

  private flushInBackground(): void {
    this.timer = undefined;
    for (const agentId of [...this.dirty]) {
      // Changes made while this write is under way mark the agent dirty again (a later write).
      this.dirty.delete(agentId);
      const write = this.writeAgentInBackground(agentId)
        .catch((err) => {
          // Dirty again: the next change, flushNow() or close() retries it.
          this.markDirty(agentId);
          this.onError(agentId, err);
        })
        .finally(() => this.inFlight.delete(write));
      this.inFlight.set(write, performance.now());
    }
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
