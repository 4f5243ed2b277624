import type { ChannelAccount, OutboundTarget } from "../types.js";

/**
 * One message the bot posts and then edits in place: at most one edit every `throttleMs`
 * (platforms rate-limit edits, Telegram about one a second per chat), never two platform calls
 * at once, and the latest text wins. A failed post or edit only skips that frame: a draft is a
 * courtesy, the real reply goes through the delivery ledger.
 */
export class ThrottledDraft {
  private messageId?: string;
  private wanted = "";
  private shown = "";
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private lastFlushAt = 0;
  private closed = false;

  constructor(
    private readonly account: ChannelAccount,
    private readonly target: OutboundTarget,
    private readonly throttleMs: number,
  ) {}

  /** Show `text` as soon as the throttle allows; blank text shows nothing. */
  show(text: string): void {
    if (this.closed) return;
    this.wanted = text;
    this.schedule();
  }

  /** Stop editing; resolves with the message's id once its last call landed (undefined: never posted). */
  async close(): Promise<string | undefined> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.inFlight;
    return this.messageId;
  }

  private schedule(): void {
    if (this.timer || this.inFlight) return;
    const wait = Math.max(0, this.lastFlushAt + this.throttleMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.flush().finally(() => {
        this.inFlight = undefined;
        if (!this.closed && this.wanted !== this.shown) this.schedule();
      });
    }, wait);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const text = this.wanted;
    if (!text.trim() || text === this.shown || this.closed) return;
    this.lastFlushAt = Date.now();
    try {
      if (this.messageId === undefined) this.messageId = (await this.account.send(this.target, { markdown: text, silent: true })).messageId;
      else await this.account.editMessage!(this.target, this.messageId, { markdown: text });
      this.shown = text;
    } catch {
      // A rate limit or a refused edit skips this frame; the next change tries again.
    }
  }
}
