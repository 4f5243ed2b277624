import { assistantText } from "../../agents/runner/model-messages.js";
import { toolLabel, type ToolProgressDetail } from "../../agents/tool-labels.js";
import type { AgentEvent } from "../../agents/types.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";
import { mayTurnSilent } from "./silent-text.js";
import { ThrottledDraft } from "./throttled-draft.js";
import { cardPreview, type CardPreview } from "./progress-card-preview.js";

/** `streaming.progress`, resolved. */
export interface ProgressDraftSettings {
  /** Real work must last this long before a draft appears, so quick turns post nothing extra. */
  initialDelayMs: number;
  /** Minimum time between two edits of the draft. */
  throttleMs: number;
  /** The draft's title; absent: none above a headline, `implicitLabel` above bare tool lines; false: never. */
  label: string | false | undefined;
  implicitLabel: string;
  maxLines: number;
  maxLineChars: number;
  /** A rolling line per tool call. */
  toolProgress: boolean;
  /** `raw`: an exec line shows its command; `status`: only that a command ran. */
  commandText: "status" | "raw";
  /** `agents…toolProgressDetail` of the agent whose run this is. */
  detail: ToolProgressDetail;
}

/** What the draft shows: the agent's last words before a tool, the session's progress card as the run last wrote it, and the tool lines. */
interface DraftState {
  headline: string;
  card?: CardPreview;
  lines: string[];
}

/**
 * `streaming.mode: progress`: while a run does real work (a tool call), one message shows what
 * is happening — the agent's own words before the tool (its headline) and, with `toolProgress`,
 * a line per tool call — edited as the work goes on. A successful progress_card call of the run
 * puts the card's checklist (or, without steps, its note as plain text) under the headline; a
 * clear takes it out, a refused call leaves it. It appears only once the work has lasted
 * `initialDelayMs`, so a plain answer never shows one. The answer itself is sent as an ordinary
 * reply; the draft is then deleted (kept after a failure, as the record of what was tried).
 */
export class ProgressDraft {
  private readonly state: DraftState = { headline: "", lines: [] };
  /** progress_card calls under way: their arguments, applied once the call succeeds. */
  private readonly cardCalls = new Map<string, Record<string, unknown>>();
  private readonly draft: ThrottledDraft;
  private startTimer?: NodeJS.Timeout;
  private started = false;
  private finished = false;

  constructor(
    private readonly account: ChannelAccount,
    private readonly target: OutboundTarget,
    private readonly settings: ProgressDraftSettings,
  ) {
    this.draft = new ThrottledDraft(account, target, settings.throttleMs);
  }

  readonly onEvent = (event: AgentEvent): void => {
    if (this.finished) return;
    switch (event.type) {
      case "message_end": {
        const text = assistantText(event.message).trim();
        const callsTools = event.message.content.some((block) => block.type === "toolCall");
        if (callsTools && text && !mayTurnSilent(text)) this.state.headline = text.replace(/\s+/g, " ");
        return this.changed();
      }
      case "tool_execution_start":
        if (event.toolName === "progress_card") this.cardCalls.set(event.toolCallId, event.args);
        if (this.settings.toolProgress) this.addLine(toolLabel(event.toolName, event.args, this.settings));
        this.workStarted();
        return this.changed();
      case "tool_execution_end":
        if (event.toolName === "progress_card") this.cardWritten(event.toolCallId, event.isError);
        if (event.isError && this.settings.toolProgress) this.addLine(`⚠️ ${event.toolName} failed`);
        return this.changed();
      default:
        return;
    }
  };

  /**
   * The run ended and its answer went out: stop editing, and take the draft out of the chat
   * unless `keep` (a failed run). Never throws: the draft is a courtesy.
   */
  async finish(keep: boolean): Promise<void> {
    this.finished = true;
    clearTimeout(this.startTimer);
    const messageId = await this.draft.close();
    if (messageId === undefined || keep || !this.account.deleteMessage) return;
    await this.account.deleteMessage(this.target, messageId).catch(() => undefined);
  }

  /** A progress_card call ended: a stored card replaces what the draft shows of it; a refused one changes nothing. */
  private cardWritten(toolCallId: string, isError: boolean): void {
    const args = this.cardCalls.get(toolCallId);
    this.cardCalls.delete(toolCallId);
    if (isError || !args) return;
    const preview = cardPreview(args);
    if (preview === "unchanged") return;
    this.state.card = preview ?? undefined;
  }

  private addLine(line: string): void {
    this.state.lines = [...this.state.lines, line].slice(-this.settings.maxLines);
  }

  private workStarted(): void {
    if (this.started || this.startTimer) return;
    this.startTimer = setTimeout(() => {
      this.started = true;
      this.changed();
    }, this.settings.initialDelayMs);
    this.startTimer.unref();
  }

  private changed(): void {
    if (this.started && !this.finished) this.draft.show(this.render());
  }

  private render(): string {
    const { headline, card, lines } = this.state;
    const { label, implicitLabel, maxLines, maxLineChars } = this.settings;
    const title = label === false ? undefined : (label ?? (headline ? undefined : implicitLabel));
    return [
      ...(title ? [title] : []),
      ...(headline ? [compact(headline, maxLineChars * 2)] : []),
      ...(card ? cardLines(card, maxLines, maxLineChars) : []),
      ...lines.map((line) => `• ${compact(line, maxLineChars)}`),
    ].join("\n");
  }
}

const STEP_MARK = { completed: "✅", in_progress: "▶️", pending: "⬜" } as const;

/** The card's lines: its completion count and at most `maxLines` steps, or its note within the headline's limit. */
function cardLines(card: CardPreview, maxLines: number, maxLineChars: number): string[] {
  if (!("steps" in card)) return [compact(card.note, maxLineChars * 2)];
  const done = card.steps.filter((s) => s.status === "completed").length;
  const shown = card.steps.slice(0, maxLines).map((s) => `${STEP_MARK[s.status]} ${compact(s.step, maxLineChars)}`);
  const more = card.steps.length - shown.length;
  return [`Plan ${done}/${card.steps.length}`, ...shown, ...(more > 0 ? [`… ${more} more`] : [])];
}

function compact(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
