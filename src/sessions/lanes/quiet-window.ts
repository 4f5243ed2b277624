/**
 * Debounce for `collect`: the window is "quiet" once `ms` passed since the last `restart()`.
 * Every new message restarts it, so a burst of messages becomes one turn.
 */
export class QuietWindow {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly onQuiet: () => void,
  ) {}

  get quiet(): boolean {
    return this.timer === undefined;
  }

  restart(): void {
    this.cancel();
    if (this.ms <= 0) return; // no window: quiet straight away (the caller checks readiness)
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onQuiet();
    }, this.ms);
    // A pending batch must not keep a shutting-down process alive on its own.
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
