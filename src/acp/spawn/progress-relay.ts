import type { AcpRuntimeEvent } from "../runtime/types.js";

export interface ProgressRelaySettings {
  coalesceIdleMs: number;
  maxChunkChars: number;
  tagVisibility: Record<string, boolean>;
  /** A status or tool line already relayed in this turn is not relayed again. */
  repeatSuppression: boolean;
}

/**
 * Relays a child ACP agent's progress to its requester (`streamTo: "parent"`): the agent's words
 * and the titles of its tool calls, filtered by `acp.stream.tagVisibility`, gathered for
 * `coalesceIdleMs` and sent as one message, cut to `maxChunkChars`. At most one message is in
 * flight per interval, so a chatty agent cannot flood the chat. With `repeatSuppression`, a tool
 * call's line is relayed once per status and a status line once per text.
 */
export class ProgressRelay {
  private pending = "";
  private timer?: NodeJS.Timeout;
  private readonly seenLines = new Set<string>();
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
      if (this.repeated(`tool:${event.toolCallId ?? ""}:${event.status ?? ""}`)) return undefined;
      return `\n[tool] ${title}${event.status && event.status !== "pending" ? ` (${event.status})` : ""}\n`;
    }
    if (this.repeated(`status:${tag}:${event.text}`)) return undefined;
    return `\n[${tag}] ${event.text}\n`;
  }

  /** Whether `key` was relayed before (when repeats are suppressed); remembers it. */
  private repeated(key: string): boolean {
    if (!this.settings.repeatSuppression) return false;
    if (this.seenLines.has(key)) return true;
    this.seenLines.add(key);
    return false;
  }
}
