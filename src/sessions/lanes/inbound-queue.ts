/**
 * Per-session inbox for messages that arrive while the session's run is active (`messages.queue`,
 * see docs/sessions.md). It only decides *where* a message waits and *how* waiting messages become
 * turns; running turns is the lane scheduler's job.
 *
 * Modes:
 * - `steer`: the message waits in a steering buffer that the active run drains at its next model
 *   boundary (`takeSteering()`). Whatever the run never took becomes followup turns when it
 *   ends. While older followups are still waiting, new messages queue behind them instead of
 *   steering, so the user's messages are never answered out of order.
 * - `followup`: every message is its own later turn, oldest first.
 * - `collect`: messages merge into one turn once `debounceMs` passed without a new one.
 * - `interrupt`: the caller aborts the active run; everything waiting becomes one turn with the
 *   newest message last (see `interruptText`).
 *
 * A message may carry its own turn settings (`meta.turnSettings`), and messages share a turn only
 * when those are equal: in `steer` mode a message whose settings differ from the running turn's
 * waits as a followup instead of being steered, and `collect` / `interrupt` merge only the
 * consecutive messages whose settings equal the oldest one's; the others follow as their own
 * turns, in arrival order, each with its own settings.
 *
 * Overflow (`cap` waiting messages, steering buffer included): `new` refuses the incoming message,
 * `old` drops the oldest waiting one, `summarize` drops the oldest but keeps a one-line summary
 * that is delivered with the next turn or steering batch. Each case calls `notify`.
 */
import type {
  ClearedInbox,
  DropPolicy,
  InboundMessage,
  InboxNotice,
  InboxSettings,
  OfferResult,
  QueueMode,
  QueuedTurn,
  SessionInbox,
  SessionInboxOptions,
} from "./inbound-types.js";
import { droppedNotice, rejectedNotice, summarizedNotice, summaryDroppedNotice } from "./overflow-notices.js";
import { QuietWindow } from "./quiet-window.js";
import { sameTurnSettings } from "./turn-settings-equality.js";
import { collectedText, interruptText, summaryBlock, summaryLine, withSummary } from "./turn-text.js";

export const DEFAULT_QUEUE_CAP = 20;
export const DEFAULT_DEBOUNCE_MS = 500;
export const DEFAULT_DROP_POLICY: DropPolicy = "summarize";
/** Summary lines kept for the next turn; older ones are only counted, so a flood stays small. */
export const MAX_SUMMARY_LINES = 10;

type Room = { refused: true; notice: string } | { refused: false; notice?: string };

interface Summarized {
  id: string;
  line: string;
  receivedAt: number;
}

export function createSessionInbox<S extends object = object>(options: SessionInboxOptions): SessionInbox<S> {
  return new Inbox<S>(options);
}

class Inbox<S extends object> implements SessionInbox<S> {
  mode: QueueMode = "steer";
  private cap = DEFAULT_QUEUE_CAP;
  private drop = DEFAULT_DROP_POLICY;
  private debounceMs = DEFAULT_DEBOUNCE_MS;
  private readonly notify: (event: InboxNotice) => void;
  private readonly sessionKey: string | undefined;
  /** Messages waiting for a later turn, oldest first. */
  private readonly queue: InboundMessage<S>[] = [];
  /**
   * Steer mode only: messages for the active run, all older than every queued one (a message is
   * steered only while `queue` is empty; one that may not be steered starts the queue).
   */
  private readonly steering: InboundMessage<S>[] = [];
  /** Summaries of dropped messages not yet delivered, at most `MAX_SUMMARY_LINES`. */
  private summaries: Summarized[] = [];
  private omittedSummaries = 0;
  /** Collect mode only. */
  private window: QuietWindow | undefined;
  private waiters: Array<() => void> = [];

  constructor(options: SessionInboxOptions) {
    this.notify = options.notify;
    this.sessionKey = options.sessionKey;
    this.reconfigure(options);
  }

  reconfigure(settings: InboxSettings): void {
    const cap = settings.cap !== undefined && settings.cap >= 1 ? Math.floor(settings.cap) : DEFAULT_QUEUE_CAP;
    const drop = settings.drop ?? DEFAULT_DROP_POLICY;
    const debounceMs = settings.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    const windowChanged = settings.mode !== this.mode || debounceMs !== this.debounceMs || (settings.mode === "collect" && !this.window);
    // The queue is empty while steering holds anything, so the carried-over messages stay in order.
    if (this.mode === "steer" && settings.mode !== "steer") this.runEnded();
    this.mode = settings.mode;
    this.cap = cap;
    this.drop = drop;
    this.debounceMs = debounceMs;
    if (windowChanged) {
      // A batch that was waiting for quiet waits out the new window from now.
      const batchWaiting = this.window !== undefined && !this.window.quiet;
      this.window?.cancel();
      this.window = this.mode === "collect" ? new QuietWindow(debounceMs, () => this.wakeWaiters()) : undefined;
      if (batchWaiting) this.window?.restart();
    }
    this.wakeWaiters();
  }

  offer(message: InboundMessage<S>, runningTurnSettings?: S): OfferResult {
    const room = this.makeRoomFor(message);
    if (room.refused) return { action: "rejected", notice: room.notice };
    const result = this.place(message, runningTurnSettings);
    if (room.notice) result.notice = room.notice;
    this.wakeWaiters();
    return result;
  }

  refusesNext(): boolean {
    return this.drop === "new" && this.pendingCount() >= this.cap;
  }

  takeSteering(): InboundMessage<S>[] {
    if (this.steering.length === 0) return [];
    const taken = this.steering.splice(0);
    const summary = this.takeSummaryMessage();
    return summary ? [summary, ...taken] : taken;
  }

  runEnded(): void {
    if (this.steering.length === 0) return;
    // Steered messages are older than anything queued: they go first.
    this.queue.unshift(...this.steering.splice(0));
    this.wakeWaiters();
  }

  nextTurn(): QueuedTurn<S> | undefined {
    this.runEnded();
    if (!this.turnReady()) return undefined;
    const messages = this.takeTurnMessages();
    const summary = this.takeSummaryMessage()?.text;
    const merge = this.mode === "interrupt" ? interruptText : collectedText;
    const textOf = (some: readonly InboundMessage<S>[]) => withSummary(summary, merge(some));
    return { messages, mergedText: textOf(messages), textOf };
  }

  whenReady(): Promise<void> {
    if (this.turnReady()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  pendingCount(): number {
    return this.queue.length + this.steering.length;
  }

  remove(id: string): "queue" | "steering" | undefined {
    // A summarized message leaves with its summary line: no turn may see it any more.
    this.summaries = this.summaries.filter((s) => s.id !== id);
    for (const [name, buffer] of [
      ["queue", this.queue],
      ["steering", this.steering],
    ] as const) {
      const index = buffer.findIndex((m) => m.id === id);
      if (index < 0) continue;
      buffer.splice(index, 1);
      return name;
    }
    return undefined;
  }

  clear(): ClearedInbox<S> {
    this.window?.cancel();
    const messages = [...this.steering.splice(0), ...this.queue.splice(0)];
    const summaries = this.summaries.map((s) => s.line);
    this.summaries = [];
    this.omittedSummaries = 0;
    return { messages, summaries };
  }

  /** Applies the drop policy when the inbox is full; `notice` is set whenever it acted. */
  private makeRoomFor(incoming: InboundMessage<S>): Room {
    if (this.pendingCount() < this.cap) return { refused: false };
    if (this.drop === "new") {
      const notice = rejectedNotice(this.cap, incoming);
      this.emit("rejected", notice, [incoming.id]);
      return { refused: true, notice };
    }
    let notice: string | undefined;
    while (this.pendingCount() >= this.cap) {
      // Steering messages are always older than waiting followups (see `steering`).
      const oldest = this.steering.shift() ?? this.queue.shift();
      if (!oldest) break;
      if (this.drop === "summarize") {
        this.keepSummary(oldest);
        notice = summarizedNotice(this.cap, oldest);
        this.emit("summarized", notice, [oldest.id]);
      } else {
        notice = droppedNotice(this.cap, oldest);
        this.emit("dropped", notice, [oldest.id]);
      }
    }
    return { refused: false, notice };
  }

  private place(message: InboundMessage<S>, runningTurnSettings: S | undefined): OfferResult {
    switch (this.mode) {
      case "steer":
        if (this.queue.length === 0 && sameTurnSettings(message.meta?.turnSettings, runningTurnSettings)) {
          this.steering.push(message);
          return { action: "steered", position: this.steering.length };
        }
        this.queue.push(message);
        return { action: "queued", position: this.queue.length };
      case "followup":
        this.queue.push(message);
        return { action: "queued", position: this.queue.length };
      case "collect":
        this.queue.push(message);
        this.window?.restart();
        return { action: "queued", position: this.queue.length };
      case "interrupt":
        this.queue.push(message);
        return { action: "interrupt", position: this.queue.length };
    }
  }

  private turnReady(): boolean {
    if (this.queue.length === 0) return false;
    return this.mode !== "collect" || (this.window?.quiet ?? true);
  }

  /**
   * `followup` and carried-over steering run one message per turn; the others merge the oldest
   * message with the ones right behind it whose turn settings are the same.
   */
  private takeTurnMessages(): InboundMessage<S>[] {
    if (this.mode !== "collect" && this.mode !== "interrupt") return this.queue.splice(0, 1);
    const settings = this.queue[0]!.meta?.turnSettings;
    let count = 1;
    while (count < this.queue.length && sameTurnSettings(this.queue[count]!.meta?.turnSettings, settings)) count += 1;
    return this.queue.splice(0, count);
  }

  /**
   * Keeps a one-line summary of a message dropped under `summarize`. Past `MAX_SUMMARY_LINES` the
   * oldest summary goes too: that message no longer reaches the model at all, so it is reported
   * dropped (only counted in the summary block).
   */
  private keepSummary(message: InboundMessage<S>): void {
    this.summaries.push({ id: message.id, line: summaryLine(message.text), receivedAt: message.receivedAt });
    if (this.summaries.length > MAX_SUMMARY_LINES) {
      const lost = this.summaries.shift()!;
      this.omittedSummaries += 1;
      this.emit("dropped", summaryDroppedNotice(MAX_SUMMARY_LINES, lost.line), [lost.id]);
    }
  }

  /** Pending summaries as one synthetic message, delivered with whatever reaches the model next. */
  private takeSummaryMessage(): InboundMessage<S> | undefined {
    if (this.summaries.length === 0) return undefined;
    const taken = this.summaries;
    const text = summaryBlock(
      taken.map((s) => s.line),
      this.omittedSummaries,
    );
    this.summaries = [];
    this.omittedSummaries = 0;
    const ids = taken.map((s) => s.id);
    return {
      id: `queue-summary:${ids.join(",")}`,
      text,
      receivedAt: taken[0]!.receivedAt,
      meta: { synthetic: "queue-summary", summarizedIds: ids },
    };
  }

  private emit(kind: InboxNotice["kind"], text: string, messageIds: string[]): void {
    const event: InboxNotice = { kind, text, messageIds };
    if (this.sessionKey !== undefined) event.sessionKey = this.sessionKey;
    this.notify(event);
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0 || !this.turnReady()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
