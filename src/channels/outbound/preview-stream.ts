import type { AgentEvent } from "../../agents/types.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";
import { mayTurnSilent } from "./silent-text.js";
import { ThrottledDraft } from "./throttled-draft.js";

export interface PreviewOptions {
  /** Minimum time between two edits: platforms rate-limit edits (Telegram ~1/s per chat). */
  throttleMs: number;
  /** The channel's message limit; a longer draft shows its head and an ellipsis. */
  maxChars: number;
}

/**
 * `streaming.mode: partial`: the reply appears while the model writes it, as one message that
 * is edited in place (throttled). The final answer then replaces the draft through the delivery
 * ledger (`previewMessageId`), so a crash mid-stream still ends with the complete reply. A draft
 * that is the silent answer, or may still become it, is not shown.
 */
export class PreviewStream {
  private readonly draft: ThrottledDraft;
  private finished = false;

  constructor(
    account: ChannelAccount,
    target: OutboundTarget,
    private readonly options: PreviewOptions,
  ) {
    this.draft = new ThrottledDraft(account, target, options.throttleMs);
  }

  readonly onEvent = (event: AgentEvent): void => {
    if (this.finished || event.type !== "message_update" || event.delta.kind !== "text") return;
    const text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    const { maxChars } = this.options;
    const shown = text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
    if (!mayTurnSilent(shown)) this.draft.show(shown);
  };

  /** Stop editing; resolves with the draft's message id once the last edit landed (undefined: no draft was posted). */
  finish(): Promise<string | undefined> {
    this.finished = true;
    return this.draft.close();
  }
}
