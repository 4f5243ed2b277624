/** How finished blocks are merged before they are sent (OpenClaw's `blockStreamingCoalesce`). */
export interface BlockCoalescing {
  /** Below this many characters, merged blocks wait for more text or the end of the text. */
  minChars: number;
  /** A message never grows past this; a block that would make it do so starts the next one. */
  maxChars: number;
  /** Merged blocks go out once no new block came for this long. */
  idleMs: number;
  /** What joins two merged blocks: a blank line, a line break or a space, by the chunker's break preference. */
  joiner: string;
}

/**
 * Merges consecutive blocks into fewer messages, so a fast model does not post a line a
 * second: blocks gather until the model pauses (`idleMs`) with at least `minChars` gathered,
 * until the next block would pass `maxChars`, or until `flush` (a tool starts, the run ends).
 */
export class BlockCoalescer {
  private pending = "";
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: BlockCoalescing,
    private readonly send: (text: string) => void,
  ) {}

  add(block: string): void {
    const { joiner, maxChars } = this.options;
    if (this.pending && this.pending.length + joiner.length + block.length > maxChars) this.sendPending();
    this.pending = this.pending ? `${this.pending}${joiner}${block}` : block;
    if (this.pending.length >= maxChars) this.sendPending();
    else this.waitForIdle();
  }

  /** Send what is gathered, however short. */
  flush(): void {
    this.sendPending();
  }

  private waitForIdle(): void {
    this.clearTimer();
    if (this.pending.length < this.options.minChars) return;
    if (this.options.idleMs === 0) return this.sendPending();
    this.timer = setTimeout(() => this.sendPending(), this.options.idleMs);
    this.timer.unref();
  }

  private sendPending(): void {
    this.clearTimer();
    const text = this.pending;
    this.pending = "";
    if (text) this.send(text);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
