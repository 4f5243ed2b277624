import { assistantText, isSilentReply } from "../../agents/runner/model-messages.js";
import type { AgentEvent } from "../../agents/types.js";
import { BlockChunker, type BlockChunking } from "./block-chunker.js";
import { BlockCoalescer, type BlockCoalescing } from "./block-coalescer.js";
import { mayTurnSilent } from "./silent-text.js";

/** Block streaming for one chat, as resolved from the agent's defaults and the channel's `streaming.block`. */
export interface BlockStreamingSettings {
  /** `text_end`: blocks go out while the model writes; `message_end`: once each of its messages is complete. */
  breakAt: "text_end" | "message_end";
  chunking: BlockChunking;
  coalescing: BlockCoalescing;
  /** A random pause before each block after the first (`humanDelay`); absent: none. */
  humanDelay?: { minMs: number; maxMs: number };
}

/** Sends one block of the reply; resolves once it is recorded for delivery (not necessarily sent). */
export type SendBlock = (text: string, index: number, model: string | undefined) => Promise<void>;

/** What went out as blocks, for the reply sent at the end of the run. */
export interface StreamedReply {
  /** The text of the run's last complete message that went out as blocks. */
  lastMessage: string;
}

/**
 * Block streaming: the agent's text goes to the chat in blocks while the run goes on, each an
 * ordinary message recorded for delivery as every reply is. Blocks of a message end at good
 * breaks (`BlockChunker`), are merged while the model writes fast (`BlockCoalescer`), and are
 * all out before a tool starts, so what the agent said it is about to do arrives before it does
 * it. A message that is the silent answer is never sent; text of a model attempt that failed
 * before its message ended is dropped with it.
 */
export class BlockReplyStream {
  private readonly chunker: BlockChunker;
  private readonly coalescer: BlockCoalescer;
  /** The text of the message being written, as far as it arrived. */
  private messageText = "";
  private lastMessage: string | undefined;
  private model: string | undefined;
  private blocks = 0;
  private sends: Promise<void> = Promise.resolve();
  private finished = false;

  constructor(
    private readonly settings: BlockStreamingSettings,
    private readonly send: SendBlock,
    private readonly onSendError: (err: Error) => void,
    private readonly random: () => number = Math.random,
  ) {
    this.chunker = new BlockChunker(settings.chunking);
    this.coalescer = new BlockCoalescer(settings.coalescing, (text) => this.queue(text));
  }

  readonly onEvent = (event: AgentEvent): void => {
    if (this.finished) return;
    switch (event.type) {
      case "run_context":
        this.model = event.model;
        return;
      case "model_attempt":
        if (event.ok) this.model = event.ref;
        return;
      case "message_start":
        // Text of a message that never ended belonged to an attempt that failed.
        this.chunker.discard();
        this.messageText = "";
        return;
      case "message_update":
        if (event.delta.kind === "text") this.take(assistantText(event.message), false);
        return;
      case "message_end":
        this.take(assistantText(event.message), true);
        return;
      case "tool_execution_start":
        this.coalescer.flush();
        return;
      default:
        return;
    }
  };

  /**
   * The run ended: blocks already cut go out (text of a message that never ended does not),
   * and this resolves once every block is recorded, with what was streamed (undefined: nothing).
   */
  async finish(): Promise<StreamedReply | undefined> {
    this.finished = true;
    this.chunker.discard();
    this.coalescer.flush();
    await this.sends;
    return this.blocks > 0 ? { lastMessage: this.lastMessage ?? "" } : undefined;
  }

  private take(text: string, ended: boolean): void {
    const added = text.startsWith(this.messageText) ? text.slice(this.messageText.length) : text;
    if (!text.startsWith(this.messageText)) this.chunker.discard();
    this.messageText = ended ? "" : text;
    const cut = !ended && this.settings.breakAt === "text_end" && !mayTurnSilent(text);
    for (const block of this.chunker.push(added, cut)) this.coalescer.add(block);
    if (!ended) return;
    if (isSilentReply(text)) return this.chunker.discard();
    for (const block of this.chunker.flush()) this.coalescer.add(block);
    if (text.trim()) this.lastMessage = text;
  }

  private queue(text: string): void {
    const index = this.blocks;
    this.blocks += 1;
    const model = this.model;
    this.sends = this.sends
      .then(async () => {
        const pause = index > 0 ? this.pauseMs() : 0;
        if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
        await this.send(text, index, model);
      })
      .catch((err: Error) => this.onSendError(err));
  }

  private pauseMs(): number {
    const delay = this.settings.humanDelay;
    if (!delay) return 0;
    return Math.round(delay.minMs + this.random() * (delay.maxMs - delay.minMs));
  }
}
