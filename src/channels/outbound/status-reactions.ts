import type { StatusReactionKey } from "../types.js";

/**
 * Status reactions (`messages.statusReactions.enabled`): the emoji on the message the agent is
 * answering follows the run, as OpenClaw's do — queued (the ack emoji), thinking, a tool (by
 * kind), compacting, a stall warning after 10 s and 30 s without news, then done or error for a
 * moment before the ack emoji comes back.
 */
export const STATUS_EMOJIS = {
  thinking: "🧠",
  tool: "🛠️",
  coding: "💻",
  web: "🌐",
  done: "✅",
  error: "❌",
  stallSoft: "⏳",
  stallHard: "⚠️",
  compacting: "🗜️",
} as const;

export const STATUS_TIMING = { debounceMs: 700, stallSoftMs: 10_000, stallHardMs: 30_000, doneHoldMs: 1_500, errorHoldMs: 2_500 };

/** How a platform shows the bot's reaction on one message. */
export interface ReactionPort {
  set(emoji: string): Promise<void>;
  /** Absent where setting one replaces the last (Telegram). */
  remove?(emoji: string): Promise<void>;
  /** The emoji the platform shows for a status; undefined: that status is not shown. */
  emojiFor(key: StatusReactionKey, wanted: string): string | undefined;
}

const CODING_TOOLS = ["exec", "process", "read", "write", "edit", "apply_patch", "bash"];
const WEB_TOOLS = ["web_search", "x_search", "web_fetch", "browser"];

/** The status a tool shows: coding tools, web tools, anything else. */
export function toolStatus(toolName: string): "coding" | "web" | "tool" {
  const name = toolName.toLowerCase();
  if (WEB_TOOLS.some((t) => name.includes(t))) return "web";
  return CODING_TOOLS.some((t) => name.includes(t)) ? "coding" : "tool";
}

export class StatusReactions {
  /** What the platform shows now, and the bot's reactions on the message (to take back). */
  private current = "";
  private readonly shown = new Set<string>();
  private pending = "";
  private debounce: NodeJS.Timeout | undefined;
  private stalls: NodeJS.Timeout[] = [];
  private finished = false;
  /** Platform calls one after another, never two at once on the same message. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly port: ReactionPort,
    private readonly initial: string,
    private readonly onError: (err: Error) => void,
    private readonly timing = STATUS_TIMING,
  ) {}

  /** The ack emoji, at once; a status the run already asked for still follows after its quiet time. */
  queued(): void {
    if (this.finished) return;
    const emoji = this.port.emojiFor("queued", this.initial);
    if (!this.pending) this.armStalls();
    if (emoji) this.enqueue(() => this.apply(emoji));
  }

  thinking(): void {
    this.schedule("thinking", STATUS_EMOJIS.thinking);
  }

  tool(toolName: string): void {
    const key = toolStatus(toolName);
    this.schedule(key, STATUS_EMOJIS[key]);
  }

  compacting(): void {
    this.schedule("compacting", STATUS_EMOJIS.compacting);
  }

  /** Done or error, held a moment, then the ack emoji again; resolves when all of it is shown. */
  finish(ok: boolean): Promise<void> {
    if (this.finished) return this.chain;
    this.finished = true;
    this.clearTimers();
    const key = ok ? "done" : "error";
    const emoji = this.port.emojiFor(key, STATUS_EMOJIS[key]);
    const hold = ok ? this.timing.doneHoldMs : this.timing.errorHoldMs;
    this.enqueue(async () => {
      if (emoji) {
        await this.apply(emoji);
        await this.removeAllBut(emoji);
        await new Promise((resolve) => setTimeout(resolve, hold).unref());
      }
      await this.apply(this.port.emojiFor("queued", this.initial) ?? this.initial);
      await this.removeAllBut(this.current);
    });
    return this.chain;
  }

  private schedule(key: StatusReactionKey, wanted: string): void {
    if (this.finished) return;
    const emoji = this.port.emojiFor(key, wanted);
    this.armStalls();
    if (!emoji || emoji === this.current || emoji === this.pending) return;
    this.pending = emoji;
    clearTimeout(this.debounce);
    const show = () =>
      this.enqueue(async () => {
        await this.apply(emoji);
        if (this.pending === emoji) this.pending = "";
      });
    this.debounce = setTimeout(show, this.timing.debounceMs).unref();
  }

  /** No news for a while: ⏳, and later ⚠️, until the next status. */
  private armStalls(): void {
    for (const timer of this.stalls) clearTimeout(timer);
    const stall = (key: "stallSoft" | "stallHard", ms: number) =>
      setTimeout(() => {
        const emoji = this.port.emojiFor(key, STATUS_EMOJIS[key]);
        if (!this.finished && emoji) this.enqueue(() => this.apply(emoji));
      }, ms).unref();
    this.stalls = [stall("stallSoft", this.timing.stallSoftMs), stall("stallHard", this.timing.stallHardMs)];
  }

  private clearTimers(): void {
    clearTimeout(this.debounce);
    for (const timer of this.stalls) clearTimeout(timer);
    this.stalls = [];
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((err: Error) => this.onError(err));
  }

  private async apply(emoji: string): Promise<void> {
    if (emoji === this.current) return;
    await this.port.set(emoji);
    this.current = emoji;
    this.shown.add(emoji);
    // Where a reaction adds to the others, the one before it goes once this one is on.
    if (this.port.remove) await this.removeAllBut(emoji);
  }

  private async removeAllBut(keep: string): Promise<void> {
    if (!this.port.remove) return;
    for (const emoji of [...this.shown]) {
      if (emoji === keep) continue;
      this.shown.delete(emoji);
      await this.port.remove(emoji);
    }
  }
}
