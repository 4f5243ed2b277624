import type { AgentEvent } from "../../agents/types.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";
import { mayTurnSilent } from "./silent-text.js";

export interface PreviewOptions {
  /** Minimum time between two edits: platforms rate-limit edits (Telegram ~1/s per chat). */
  throttleMs: number;
  /** The channel's message limit; a longer draft shows its head and an ellipsis. */
  maxChars: number;
}

/**
 * `streaming.mode: partial`: the reply appears while the model writes it, as one message that
 * is edited in place (throttled). The final answer then replaces the draft through the delivery
 * ledger (`previewMessageId`), so a crash mid-stream still ends with the complete reply.
 */
export class PreviewStream {
  private text = "";
  private shown = "";
  private messageId?: string;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private lastFlushAt = 0;
  private finished = false;

  constructor(
    private readonly account: ChannelAccount,
    private readonly target: OutboundTarget,
    private readonly options: PreviewOptions,
  ) {}

  readonly onEvent = (event: AgentEvent): void => {
    if (this.finished || event.type !== "message_update" || event.delta.kind !== "text") return;
    this.text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    this.schedule();
  };

  /** Stop editing; resolves with the draft's message id once the last edit landed (undefined: no draft was posted). */
  async finish(): Promise<string | undefined> {
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
    return this.messageId;
  }

  private schedule(): void {
    if (this.timer || this.inFlight) return;
    const wait = Math.max(0, this.lastFlushAt + this.options.throttleMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.flush().finally(() => {
        this.inFlight = undefined;
        if (!this.finished && this.text !== this.shown) this.schedule();
      });
    }, wait);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const draft = this.text.length > this.options.maxChars ? `${this.text.slice(0, this.options.maxChars - 1)}…` : this.text;
    if (!draft.trim() || draft === this.shown || this.finished || mayTurnSilent(draft)) return;
    this.lastFlushAt = Date.now();
    try {
      if (this.messageId === undefined) this.messageId = (await this.account.send(this.target, { markdown: draft, silent: true })).messageId;
      else await this.account.editMessage!(this.target, this.messageId, { markdown: draft });
      this.shown = draft;
    } catch {
      // A draft is a courtesy: a rate limit or a rejected edit just skips this frame.
    }
  }
}
