import type { AgentEvent } from "../../agents/types.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";
import { mayTurnSilent } from "./silent-text.js";
import { toolLine } from "./progress-draft.js";
import { ThrottledDraft } from "./throttled-draft.js";

export interface PreviewOptions {
  /** Minimum time between two edits: platforms rate-limit edits (Telegram ~1/s per chat). */
  throttleMs: number;
  /** The channel's message limit; a longer draft shows its head and an ellipsis. */
  maxChars: number;
  /** `streaming.preview.toolProgress`: while tools run, the draft shows a line per call under the text so far. */
  toolProgress: boolean;
  /** `streaming.preview.commandText`: `raw` shows an exec line's command. */
  commandText: "status" | "raw";
}

/** Tool lines a draft keeps (the latest). */
const MAX_TOOL_LINES = 8;

/**
 * `streaming.mode: partial`: the reply appears while the model writes it, as one message that
 * is edited in place (throttled). The final answer then replaces the draft through the delivery
 * ledger (`previewMessageId`), so a crash mid-stream still ends with the complete reply. A draft
 * that is the silent answer, or may still become it, is not shown. While tools run, a line per
 * call follows the text so far (`toolProgress`), until the model writes again.
 */
export class PreviewStream {
  private readonly draft: ThrottledDraft;
  private finished = false;
  private text = "";
  /** Tools started since the model last wrote text. */
  private toolLines: string[] = [];

  constructor(
    account: ChannelAccount,
    target: OutboundTarget,
    private readonly options: PreviewOptions,
  ) {
    this.draft = new ThrottledDraft(account, target, options.throttleMs);
  }

  readonly onEvent = (event: AgentEvent): void => {
    if (this.finished) return;
    if (event.type === "tool_execution_start" && this.options.toolProgress) {
      this.toolLines = [...this.toolLines, toolLine(event.toolName, event.args, this.options.commandText)].slice(-MAX_TOOL_LINES);
      return this.show();
    }
    if (event.type !== "message_update" || event.delta.kind !== "text") return;
    // The model writes again: its new text replaces the tool lines.
    this.toolLines = [];
    this.text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    this.show();
  };

  private show(): void {
    if (mayTurnSilent(this.text) && this.toolLines.length === 0) return;
    const lines = this.toolLines.map((line) => `• ${line}`).join("\n");
    const text = mayTurnSilent(this.text) ? "" : this.text;
    const full = text && lines ? `${text}\n\n${lines}` : text || lines;
    const { maxChars } = this.options;
    this.draft.show(full.length > maxChars ? `${full.slice(0, maxChars - 1)}…` : full);
  }

  /** Stop editing; resolves with the draft's message id once the last edit landed (undefined: no draft was posted). */
  finish(): Promise<string | undefined> {
    this.finished = true;
    return this.draft.close();
  }
}
