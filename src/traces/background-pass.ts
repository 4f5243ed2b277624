/**
 * Work done in the background in passes, one at a time: a kick while a pass runs asks for one
 * more pass after it (which sees what the kick was about), and close aborts the pass under way
 * and waits for it. A pass's error goes to `onError`; the next kick starts a new pass.
 */
export class BackgroundPass {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly pass: (signal: AbortSignal) => Promise<void>,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Aborted once close was called. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  kick(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass(this.stopping.signal)
      .catch((err: Error) => this.onError(err))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }
}
