/**
 * The conversation as the TUI shows it: entries in order, a streaming reply updated in place by
 * its run id until the run ends. Text is stored as received; the screen makes it inert.
 */
export type EntryKind = "user" | "assistant" | "system" | "tool" | "error";

export interface LogEntry {
  kind: EntryKind;
  text: string;
  /** The run a streamed assistant reply belongs to, while it streams. */
  runId?: string;
  /** The tool call a tool line stands for, until its result. */
  toolCallId?: string;
}

/** The log keeps this many entries; older ones scroll away for good (chat.history has them). */
const MAX_ENTRIES = 1000;

export class ChatLog {
  private items: LogEntry[] = [];
  /** Runs whose reply ended (final, aborted, error): a late delta does not reopen them. */
  private ended = new Set<string>();

  entries(): readonly LogEntry[] {
    return this.items;
  }

  clear(): void {
    this.items = [];
    this.ended.clear();
  }

  add(kind: EntryKind, text: string): void {
    this.items.push({ kind, text });
    if (this.items.length > MAX_ENTRIES) this.items.splice(0, this.items.length - MAX_ENTRIES);
  }

  /** A delta of run `runId`: appended to its reply, or its whole text when `replace` (a new message after tool calls). */
  streamDelta(runId: string, delta: string, replace: boolean): void {
    if (this.ended.has(runId)) return;
    const entry = this.streaming(runId);
    if (entry && !replace) entry.text += delta;
    else {
      // A new assistant message after tool calls starts over below their lines.
      if (entry) this.items.splice(this.items.indexOf(entry), 1);
      this.items.push({ kind: "assistant", text: delta, runId });
    }
  }

  /** One line for a tool call, updated in place when its result comes. */
  toolStarted(toolCallId: string, line: string): void {
    this.items.push({ kind: "tool", text: line, toolCallId });
  }

  toolEnded(toolCallId: string, outcome: string): void {
    const entry = this.items.find((item) => item.toolCallId === toolCallId);
    if (entry) {
      entry.text += ` ${outcome}`;
      entry.toolCallId = undefined;
    }
  }

  /** The cumulative text of run `runId`'s reply so far (the gateway sends it now and then): it wins over the deltas. */
  streamText(runId: string, text: string): void {
    if (this.ended.has(runId)) return;
    const entry = this.streaming(runId);
    if (entry) entry.text = text;
    else this.items.push({ kind: "assistant", text, runId });
  }

  hasEnded(runId: string): boolean {
    return this.ended.has(runId);
  }

  /** The run ended; its final text (when given) replaces what streamed. Returns false when it had already ended. */
  finish(runId: string, finalText?: string): boolean {
    if (this.ended.has(runId)) return false;
    this.ended.add(runId);
    const entry = this.streaming(runId);
    if (entry) {
      if (finalText !== undefined) entry.text = finalText;
      entry.runId = undefined;
      if (!entry.text) this.items.splice(this.items.indexOf(entry), 1);
    } else if (finalText) this.items.push({ kind: "assistant", text: finalText });
    return true;
  }

  private streaming(runId: string): LogEntry | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) if (this.items[i].runId === runId) return this.items[i];
    return undefined;
  }
}
