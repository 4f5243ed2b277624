import { REASONING_HEADING } from "../../agents/reasoning-visibility.js";
import { toolLabel, type ToolProgressDetail } from "../../agents/tool-labels.js";
import type { AgentEvent } from "../../agents/types.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";
import { mayTurnSilent } from "./silent-text.js";
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
  /** `agents…toolProgressDetail` of the agent whose run this is. */
  detail: ToolProgressDetail;
  /** `/reasoning stream`: until the model writes its answer, the draft shows its reasoning so far (the end of it, when long). */
  reasoning?: boolean;
  /**
   * `streaming.mode: block`: the draft grows in steps of at least `minChars` new characters (at
   * most `maxChars`), each ending at a line break, a sentence's end or a space where there is one.
   * Absent (`partial`): the draft shows all the text so far.
   */
  chunk?: { minChars: number; maxChars: number };
}

/** Tool lines a draft keeps (the latest). */
const MAX_TOOL_LINES = 8;

/**
 * `streaming.mode: partial` (or `block`, in larger steps): the reply appears while the model
 * writes it, as one message that is edited in place (throttled). The final answer then replaces the draft through the delivery
 * ledger (`previewMessageId`), so a crash mid-stream still ends with the complete reply. A draft
 * that is the silent answer, or may still become it, is not shown. While tools run, a line per
 * call follows the text so far (`toolProgress`), until the model writes again.
 */
export class PreviewStream {
  private readonly draft: ThrottledDraft;
  private finished = false;
  private text = "";
  /** `chunk`: how much of `text` the draft shows. */
  private shown = 0;
  /** Tools started since the model last wrote text. */
  private toolLines: string[] = [];
  /** `reasoning`: the current reply's reasoning so far, shown while it has no text. */
  private thinking = "";

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
      this.toolLines = [...this.toolLines, toolLabel(event.toolName, event.args, this.options)].slice(-MAX_TOOL_LINES);
      return this.show();
    }
    if (event.type === "message_update" && event.delta.kind === "thinking" && this.options.reasoning) {
      this.thinking = event.message.content.flatMap((b) => (b.type === "thinking" ? [b.thinking] : [])).join("\n\n");
      return this.show();
    }
    if (event.type !== "message_update" || event.delta.kind !== "text") return;
    // The model writes again: its new text replaces the tool lines.
    this.toolLines = [];
    const text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    if (text.length < this.shown) this.shown = 0;
    this.text = text;
    const chunk = this.options.chunk;
    if (!chunk) return this.show();
    const next = nextStepEnd(text, this.shown, chunk.minChars, chunk.maxChars);
    if (next === undefined) return;
    this.shown = next;
    this.show();
  };

  private show(): void {
    if (!this.text && this.toolLines.length === 0 && this.thinking.trim()) return this.showThinking();
    if (mayTurnSilent(this.text) && this.toolLines.length === 0) return;
    const lines = this.toolLines.map((line) => `• ${line}`).join("\n");
    const written = this.options.chunk ? this.text.slice(0, this.shown).trimEnd() : this.text;
    const text = mayTurnSilent(this.text) ? "" : written;
    const full = text && lines ? `${text}\n\n${lines}` : text || lines;
    const { maxChars } = this.options;
    this.draft.show(full.length > maxChars ? `${full.slice(0, maxChars - 1)}…` : full);
  }

  /** The reasoning so far under its heading; its end when it is longer than a message. */
  private showThinking(): void {
    const room = this.options.maxChars - REASONING_HEADING.length - 2;
    const thinking = this.thinking.trim();
    this.draft.show(`${REASONING_HEADING}\n${thinking.length > room ? `…${thinking.slice(-(room - 1))}` : thinking}`);
  }

  /** Stop editing; resolves with the draft's message id once the last edit landed (undefined: no draft was posted). */
  finish(): Promise<string | undefined> {
    this.finished = true;
    return this.draft.close();
  }
}

/**
 * Where the draft's next step ends: undefined until `minChars` new characters arrived; then the
 * last line break, else sentence end, else space between `from + minChars` and `from + maxChars`;
 * without one, `from + maxChars` once the text reaches it (until then, more text may bring a break).
 */
export function nextStepEnd(text: string, from: number, minChars: number, maxChars: number): number | undefined {
  if (text.length - from < minChars) return undefined;
  const low = from + minChars;
  const high = Math.min(text.length, from + maxChars);
  const window = text.slice(low, high);
  for (const pattern of [/\n(?![\s\S]*\n)/, /[.!?](?=\s)(?![\s\S]*[.!?]\s)/, / (?![\s\S]* )/]) {
    const match = pattern.exec(window);
    if (match) return low + match.index + 1;
  }
  return text.length >= from + maxChars ? from + maxChars : undefined;
}
