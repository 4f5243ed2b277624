/** How a bound chat's reply is cut into blocks: the `acp.stream` settings. */
export interface ReplyBlockSettings {
  /** A pause this long in the agent's writing sends what it wrote so far. */
  coalesceIdleMs: number;
  /** No block is longer: a longer run of text is cut at its last paragraph, line or word break. */
  maxChunkChars: number;
}

/**
 * A bound ACP chat's reply sent while the agent writes it (`acp.stream.deliveryMode: live`):
 * the text goes out whenever the agent pauses for `coalesceIdleMs`, and in blocks of at most
 * `maxChunkChars` while it keeps writing. Nothing is dropped (only the blank space around a block
 * is trimmed), and blocks go out one after another, in order.
 */
export class BoundReplyBlocks {
  private pending = "";
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  /** Blocks handed to `send` so far. */
  sent = 0;

  constructor(
    private readonly settings: ReplyBlockSettings,
    private readonly send: (index: number, text: string) => Promise<void>,
  ) {}

  push(text: string): void {
    this.pending += text;
    const max = Math.max(1, this.settings.maxChunkChars);
    while (this.pending.length > max) {
      const cut = breakBefore(this.pending, max);
      this.emit(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut);
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.settings.coalesceIdleMs);
    this.timer.unref();
  }

  /** The turn ended: sends what is left; resolves once every block is out (rejects with the first failure). */
  async finish(): Promise<void> {
    this.flush();
    await this.sending;
    if (this.failure) throw this.failure;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending;
    this.pending = "";
    this.emit(text);
  }

  private emit(text: string): void {
    if (!text.trim()) return;
    const index = this.sent++;
    this.sending = this.sending.then(() =>
      this.send(index, text.trim()).catch((err: Error) => {
        this.failure ??= err;
      }),
    );
  }
}

/** Where to cut `text` to at most `max` characters: after its last paragraph, line or word break before that, else at `max`. */
function breakBefore(text: string, max: number): number {
  const head = text.slice(0, max);
  for (const separator of ["\n\n", "\n", " "]) {
    const at = head.lastIndexOf(separator);
    if (at > 0) return at + separator.length;
  }
  // Never between the two halves of a character outside the Basic Multilingual Plane.
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff && max > 1 ? max - 1 : max;
}
