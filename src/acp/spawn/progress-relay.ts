import type { AcpRuntimeEvent } from "../runtime/types.js";

export interface ProgressRelaySettings {
  coalesceIdleMs: number;
  maxChunkChars: number;
  tagVisibility: Record<string, boolean>;
}

/**
 * Relays a child ACP agent's progress to its requester (`streamTo: "parent"`): the agent's words
 * and the titles of its tool calls, filtered by `acp.stream.tagVisibility`, gathered for
 * `coalesceIdleMs` and sent as one message, cut to `maxChunkChars`. At most one message is in
 * flight per interval, so a chatty agent cannot flood the chat.
 */
export class ProgressRelay {
  private pending = "";
  private timer?: NodeJS.Timeout;
  private readonly seenTools = new Set<string>();
  /** Messages go out one after another, in order. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly settings: ProgressRelaySettings,
    private readonly send: (text: string) => Promise<void>,
  ) {}

  push(event: AcpRuntimeEvent): void {
    const line = this.describe(event);
    if (!line) return;
    this.pending += line;
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.settings.coalesceIdleMs);
      this.timer.unref();
    }
  }

  /** Sends what is gathered now; resolves once every message so far went out (the turn ended). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending.trim();
    this.pending = "";
    if (text) {
      const max = this.settings.maxChunkChars;
      const message = text.length > max ? `${text.slice(0, max - 1)}…` : text;
      this.sending = this.sending.then(() => this.send(message)).catch(() => {});
    }
    return this.sending;
  }

  private describe(event: AcpRuntimeEvent): string | undefined {
    if (event.type !== "text_delta" && event.type !== "tool_call" && event.type !== "status") return undefined;
    const tag = event.tag ?? "";
    if (this.settings.tagVisibility[tag] !== true) return undefined;
    if (event.type === "text_delta") return event.text;
    if (event.type === "tool_call") {
      const title = event.title ?? event.text;
      const key = `${event.toolCallId ?? ""}:${event.status ?? ""}`;
      if (this.seenTools.has(key)) return undefined;
      this.seenTools.add(key);
      return `\n[tool] ${title}${event.status && event.status !== "pending" ? ` (${event.status})` : ""}\n`;
    }
    return `\n[${tag}] ${event.text}\n`;
  }
}
