import type { AssistantMessage, ToolCallBlock, Usage } from "./messages.js";
import type { ModelStreamEvent, ResolvedModel } from "./types.js";
import type { ClassifiedModelError } from "./types.js";

type Block = AssistantMessage["content"][number];

/**
 * The assistant message being streamed, shared by both providers: blocks in arrival order,
 * usage so far, and the one terminal event (`done` or `error`) built from it. Keeping the
 * partial message here means an error at any point still hands back what was received.
 */
export class AssistantTurn {
  private readonly content: Block[] = [];
  private usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  // Whether the last block still takes deltas; a provider closes it at a block boundary.
  private open = false;
  private readonly timestamp = Date.now();

  constructor(readonly model: ResolvedModel) {}

  beginText(initial = ""): void {
    this.content.push({ type: "text", text: initial });
    this.open = true;
  }

  beginThinking(initial = "", signature?: string): void {
    this.content.push({ type: "thinking", thinking: initial, ...(signature ? { signature } : {}) });
    this.open = true;
  }

  appendText(delta: string): void {
    const last = this.openBlock();
    if (last?.type === "text") last.text += delta;
    else this.beginText(delta);
  }

  appendThinking(delta: string): void {
    const last = this.openBlock();
    if (last?.type === "thinking") last.thinking += delta;
    else this.beginThinking(delta);
  }

  /** Anthropic signs a thinking block just before closing it; the signature must round-trip. */
  signThinking(signature: string): void {
    const last = this.openBlock();
    if (last?.type === "thinking") last.signature = (last.signature ?? "") + signature;
  }

  /** The turn's thinking was its answer after all (a reply wrapped in one unclosed think tag): it becomes the text. */
  thinkingIsAnswer(text: string): void {
    for (let i = this.content.length - 1; i >= 0; i--) if (this.content[i]!.type === "thinking") this.content.splice(i, 1);
    this.content.push({ type: "text", text });
    this.open = false;
  }

  closeBlock(): void {
    this.open = false;
  }

  addToolCall(call: ToolCallBlock): void {
    this.content.push(call);
    this.open = false;
  }

  hasToolCalls(): boolean {
    return this.content.some((block) => block.type === "toolCall");
  }

  /**
   * Merges reported counters (providers report some early, others at the end) and returns the
   * running totals. Every `usage` event carries totals, so the latest one wins; never sum them.
   */
  updateUsage(update: Partial<Usage>): Usage {
    for (const key of ["input", "output", "cacheRead", "cacheWrite"] as const) {
      const value = update[key];
      if (typeof value === "number" && Number.isFinite(value)) this.usage[key] = value;
    }
    return { ...this.usage };
  }

  done(stopReason: "stop" | "length" | "toolUse"): ModelStreamEvent {
    return { type: "done", stopReason, message: this.snapshot({ stopReason }) };
  }

  fail(error: ClassifiedModelError): ModelStreamEvent {
    const stopReason = error.kind === "aborted" ? "aborted" : "error";
    return {
      type: "error",
      kind: error.kind,
      error: error.message,
      retryable: error.retryable,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      message: this.snapshot({ stopReason, errorMessage: error.message }),
    };
  }

  private openBlock(): Block | undefined {
    return this.open ? this.content[this.content.length - 1] : undefined;
  }

  private snapshot(end: Pick<AssistantMessage, "stopReason" | "errorMessage">): AssistantMessage {
    return {
      role: "assistant",
      // Blocks a provider opened but never filled (an empty text block, an unsigned empty
      // thinking block) are noise that some APIs reject when the message is sent back.
      content: this.content.filter(isMeaningful).map((block) => ({ ...block })),
      provider: this.model.provider,
      model: this.model.id,
      usage: { ...this.usage },
      ...end,
      timestamp: this.timestamp,
    };
  }
}

function isMeaningful(block: Block): boolean {
  if (block.type === "text") return block.text !== "";
  if (block.type === "thinking") return block.thinking !== "" || Boolean(block.signature);
  return true;
}
