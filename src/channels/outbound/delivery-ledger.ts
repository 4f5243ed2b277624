import type { ReplyVia } from "../../agents/conversation-port.js";
import { KeyedJsonLinesLog, type KeyedLogCompaction } from "../../infra/keyed-json-lines-log.js";
import type { ReplyRunIndex, SentMessageRef } from "./reply-run-index.js";

export interface DeliveryTarget {
  channel: string;
  accountId: string;
  chatId: string;
  threadId?: string;
  replyToMessageId?: string;
  /** `replyToMode: all`: every chunk of the reply quotes `replyToMessageId`, not only the first. */
  replyToEveryChunk?: true;
}

export type DeliveryState = "awaiting-reply" | "pending" | "delivered" | "failed" | "suppressed";

export interface DeliveryEntry {
  /** Caller-chosen and unique (the runId, or `send:<idempotencyKey>`). */
  id: string;
  target: DeliveryTarget;
  sessionKey?: string;
  runId?: string;
  createdAt: number;
  /** The reply text chunks, once known. */
  chunks?: string[];
  /** Chunk index → platform message id. */
  sent: Record<number, string>;
  /** Failed attempts (rate-limit waits are not attempts). */
  attempts: number;
  lastError?: string;
  state: DeliveryState;
  /** Why the entry finished as it did, when `finish` was given a reason (a suppression, a permanent refusal). */
  reason?: string;
  /** Part of the run's answer went to the chat as block replies before the run ended (`markStreamed`). */
  streamed?: true;
  /** The run answers through the `message` tool: its final text is not the reply (ReplyVia). */
  replyVia?: ReplyVia;
  /** Auto-TTS: the entry's one chunk is the text to speak, posted as audio (a voice note on Telegram), never as text. */
  speech?: true;
}

/** What `expect` records beside the target. */
export interface DeliveryMeta {
  sessionKey?: string;
  runId?: string;
  replyVia?: ReplyVia;
  speech?: true;
}

export interface DeliveryLedgerOptions {
  now?: () => number;
  /** An unfinished entry older than this is not retried after a restart (default 24 h): a day-old reply is noise. */
  freshnessMs?: number;
  /** Failed attempts before an entry is given up as `failed` (default 3). */
  maxAttempts?: number;
  /** Where each chunk sent for an entry with a `runId` is linked to that run (reactions as feedback). */
  replyRuns?: ReplyRunIndex;
}

export const DEFAULT_DELIVERY_FRESHNESS_MS = 24 * 60 * 60_000;
export const DEFAULT_DELIVERY_MAX_ATTEMPTS = 3;
const MAX_ERROR_CHARS = 500;
/** At least 1 000 lines, and 4 lines per entry owed at the last compaction. */
const COMPACTION: KeyedLogCompaction = { factor: 4, minLines: 1_000 };

/** One line per change; `entry` lines hold a whole entry (written by compaction). */
type LedgerLine =
  | { op: "expect"; id: string; target: DeliveryTarget; sessionKey?: string; runId?: string; replyVia?: ReplyVia; speech?: true; at: number }
  | { op: "reply"; id: string; chunks: string[] }
  | { op: "sent"; id: string; index: number; messageId: string }
  | { op: "attempt"; id: string; error: string; failed?: true }
  | { op: "finish"; id: string; state: FinalState; reason?: string }
  | { op: "reopen"; id: string; at: number }
  | { op: "streamed"; id: string }
  | ({ op: "entry" } & DeliveryEntry);

type FinalState = "delivered" | "failed" | "suppressed";

/**
 * The outbound half of "never lose, never double a reply". Every reply to a channel is recorded
 * before it is sent (`expect` when the run is accepted, `recordReply` with its chunks) and each
 * chunk is marked once the platform returned its message id. After a crash, `unfinished()` lists
 * what is still owed and which chunks already went out, so a resend skips them.
 *
 * Changes are appended to a JSON-lines file before the call returns; a caller that must not
 * send before the record is safe awaits `whenDurable()`. Opening the file compacts it: finished
 * and stale entries are dropped, so a finished entry is remembered until the next compaction.
 */
export class DeliveryLedger {
  /** Insertion order is creation order. */
  private readonly entries: Map<string, DeliveryEntry>;
  private readonly log: KeyedJsonLinesLog<DeliveryEntry, LedgerLine>;
  private readonly now: () => number;
  private readonly freshnessMs: number;
  private readonly maxAttempts: number;
  private readonly replyRuns: ReplyRunIndex | undefined;

  static open(file: string, options: DeliveryLedgerOptions = {}): DeliveryLedger {
    return new DeliveryLedger(file, options);
  }

  private constructor(file: string, options: DeliveryLedgerOptions) {
    this.now = options.now ?? Date.now;
    this.freshnessMs = options.freshnessMs ?? DEFAULT_DELIVERY_FRESHNESS_MS;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_DELIVERY_MAX_ATTEMPTS;
    this.replyRuns = options.replyRuns;
    // Finished entries stay in memory until the next compaction, which bounds both the file and the map.
    this.log = new KeyedJsonLinesLog<DeliveryEntry, LedgerLine>(
      file,
      {
        replay: replayLine,
        prune: (entries) => {
          for (const [id, entry] of entries) if (!this.isOwed(entry)) entries.delete(id);
        },
        snapshot: (entry) => ({ op: "entry", ...entry }),
      },
      COMPACTION,
    );
    this.entries = this.log.entries;
  }

  /** A run was accepted whose answer must go to `target` (before the model runs). Idempotent per id. */
  expect(id: string, target: DeliveryTarget, meta: DeliveryMeta = {}): DeliveryEntry {
    assertId(id);
    const existing = this.entries.get(id);
    if (existing) return copy(existing);
    const entry: DeliveryEntry = { id, target: checkTarget(target), createdAt: this.now(), sent: {}, attempts: 0, state: "awaiting-reply" };
    if (meta.sessionKey !== undefined) entry.sessionKey = meta.sessionKey;
    if (meta.runId !== undefined) entry.runId = meta.runId;
    if (meta.replyVia !== undefined) entry.replyVia = meta.replyVia;
    if (meta.speech) entry.speech = true;
    this.log.append({
      op: "expect",
      id,
      target: entry.target,
      sessionKey: entry.sessionKey,
      runId: entry.runId,
      replyVia: entry.replyVia,
      ...(entry.speech ? { speech: true as const } : {}),
      at: entry.createdAt,
    });
    this.entries.set(id, entry);
    this.log.compactIfDue();
    return copy(entry);
  }

  /**
   * The reply is known: record its chunks (state `pending`). The first chunks recorded are kept,
   * so a retried turn can never change what a half-sent reply continues with.
   */
  recordReply(id: string, chunks: string[]): DeliveryEntry {
    const entry = this.require(id);
    if (!Array.isArray(chunks) || chunks.length === 0 || chunks.some((c) => typeof c !== "string")) {
      throw new TypeError(`recordReply(${JSON.stringify(id)}): chunks must be a non-empty array of strings (a silent reply is finish(id, "suppressed"))`);
    }
    if (entry.chunks || isFinal(entry.state)) return copy(entry);
    this.log.append({ op: "reply", id, chunks });
    entry.chunks = [...chunks];
    entry.state = "pending";
    this.log.compactIfDue();
    return copy(entry);
  }

  /**
   * The run this entry awaits is sending its answer in blocks (each an entry of its own): a
   * restart that finds the run's answer does not send it again. Recorded before the first block.
   */
  markStreamed(id: string): void {
    const entry = this.require(id);
    if (entry.streamed) return;
    this.log.append({ op: "streamed", id });
    entry.streamed = true;
    this.log.compactIfDue();
  }

  /** Chunk `index` was posted as `platformMessageId`. Marking a chunk twice keeps the first id. */
  markSent(id: string, index: number, platformMessageId: string): void {
    const entry = this.require(id);
    if (!entry.chunks) throw new Error(`markSent(${JSON.stringify(id)}): no reply recorded yet`);
    if (!Number.isInteger(index) || index < 0 || index >= entry.chunks.length) {
      throw new RangeError(`markSent(${JSON.stringify(id)}): chunk index ${index} is outside 0..${entry.chunks.length - 1}`);
    }
    if (typeof platformMessageId !== "string") throw new TypeError("platformMessageId must be a string");
    if (entry.sent[index] !== undefined) return;
    this.log.append({ op: "sent", id, index, messageId: platformMessageId });
    entry.sent[index] = platformMessageId;
    if (entry.runId) this.replyRuns?.record({ ...entry.target, messageId: platformMessageId }, entry.runId);
    this.log.compactIfDue();
  }

  /** One delivery attempt failed; the entry becomes `failed` once attempts reach `maxAttempts`. */
  markAttemptFailed(id: string, error: string): DeliveryEntry {
    const entry = this.require(id);
    if (isFinal(entry.state)) return copy(entry);
    const bounded = boundError(error);
    const failed = entry.attempts + 1 >= this.maxAttempts;
    this.log.append({ op: "attempt", id, error: bounded, ...(failed ? { failed: true as const } : {}) });
    applyAttempt(entry, bounded, failed);
    const result = copy(entry);
    this.log.compactIfDue();
    return result;
  }

  /** The entry is done. The first final state wins; later calls change nothing. */
  finish(id: string, state: FinalState, reason?: string): void {
    const entry = this.require(id);
    if (!isFinal(state)) throw new TypeError(`finish(${JSON.stringify(id)}): state must be delivered, failed or suppressed, got ${JSON.stringify(state)}`);
    if (isFinal(entry.state)) return;
    const bounded = reason === undefined ? undefined : boundError(reason);
    this.log.append({ op: "finish", id, state, ...(bounded !== undefined ? { reason: bounded } : {}) });
    entry.state = state;
    if (bounded !== undefined) entry.reason = bounded;
    this.log.compactIfDue();
  }

  /**
   * A failed entry whose sender asks for it again (the same `send` idempotencyKey): it is owed
   * anew, with fresh attempts; the chunks already sent stay marked, so only the rest goes out.
   * Returns false when the entry is not a failed one with a recorded reply.
   */
  reopen(id: string): boolean {
    const entry = this.require(id);
    if (entry.state !== "failed" || !entry.chunks) return false;
    const at = this.now();
    this.log.append({ op: "reopen", id, at });
    reopenEntry(entry, at);
    this.log.compactIfDue();
    return true;
  }

  get(id: string): DeliveryEntry | undefined {
    const entry = this.entries.get(id);
    return entry ? copy(entry) : undefined;
  }

  /** Entries still owed after a restart: awaiting a reply or pending, fresh, and not out of attempts. Oldest first. */
  unfinished(): DeliveryEntry[] {
    return [...this.entries.values()]
      .filter((entry) => this.isOwed(entry))
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(copy);
  }

  /** The run whose reply went out as `message`, while the reply-run index keeps the link. */
  runOfSentMessage(message: SentMessageRef): string | undefined {
    return this.replyRuns?.runOf(message);
  }

  /** Resolves once every change made so far is fsynced. */
  async whenDurable(): Promise<void> {
    await Promise.all([this.log.whenDurable(), this.replyRuns?.whenDurable()]);
  }

  close(): void {
    this.log.close();
    this.replyRuns?.close();
  }

  private isOwed(entry: DeliveryEntry): boolean {
    return (entry.state === "awaiting-reply" || entry.state === "pending") && this.now() - entry.createdAt <= this.freshnessMs && entry.attempts < this.maxAttempts;
  }

  private require(id: string): DeliveryEntry {
    assertId(id);
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`no delivery entry ${JSON.stringify(id)} (expect() it first)`);
    return entry;
  }
}

function replayLine(entries: Map<string, DeliveryEntry>, value: unknown): void {
  const line = value as LedgerLine;
  if (typeof line !== "object" || line === null || typeof line.id !== "string") return;
  if (line.op === "entry") {
    const { op: _op, ...entry } = line;
    if (isEntryShaped(entry)) entries.set(entry.id, entry);
    return;
  }
  if (line.op === "expect") {
    if (!entries.has(line.id) && typeof line.at === "number" && isTargetShaped(line.target)) {
      const entry: DeliveryEntry = { id: line.id, target: line.target, createdAt: line.at, sent: {}, attempts: 0, state: "awaiting-reply" };
      if (typeof line.sessionKey === "string") entry.sessionKey = line.sessionKey;
      if (typeof line.runId === "string") entry.runId = line.runId;
      if (line.replyVia === "message_tool" || line.replyVia === "message_tool_only") entry.replyVia = line.replyVia;
      if (line.speech === true) entry.speech = true;
      entries.set(line.id, entry);
    }
    return;
  }
  const entry = entries.get(line.id);
  if (!entry) return;
  if (line.op === "reply" && Array.isArray(line.chunks) && !entry.chunks) {
    entry.chunks = line.chunks;
    if (!isFinal(entry.state)) entry.state = "pending";
  } else if (line.op === "sent" && Number.isInteger(line.index) && typeof line.messageId === "string") {
    entry.sent[line.index] ??= line.messageId;
  } else if (line.op === "attempt" && typeof line.error === "string") {
    applyAttempt(entry, line.error, line.failed === true);
  } else if (line.op === "finish" && isFinal(line.state) && !isFinal(entry.state)) {
    entry.state = line.state;
    if (typeof line.reason === "string") entry.reason = line.reason;
  } else if (line.op === "reopen" && entry.state === "failed" && entry.chunks && typeof line.at === "number") {
    reopenEntry(entry, line.at);
  } else if (line.op === "streamed") {
    entry.streamed = true;
  }
}

/** A reopened entry is pending again with no failed attempts (`createdAt` restarts its freshness). */
function reopenEntry(entry: DeliveryEntry, createdAt: number): void {
  entry.state = "pending";
  entry.attempts = 0;
  entry.createdAt = createdAt;
  delete entry.reason;
}

function applyAttempt(entry: DeliveryEntry, error: string, failed: boolean): void {
  entry.attempts += 1;
  entry.lastError = error;
  if (failed && !isFinal(entry.state)) {
    entry.state = "failed";
    entry.reason = `gave up after ${entry.attempts} failed attempts`;
  }
}

function isFinal(state: DeliveryState): state is FinalState {
  return state === "delivered" || state === "failed" || state === "suppressed";
}

function isTargetShaped(target: unknown): target is DeliveryTarget {
  const t = target as Partial<Record<keyof DeliveryTarget, unknown>> | null;
  return typeof t === "object" && t !== null && typeof t.channel === "string" && typeof t.accountId === "string" && typeof t.chatId === "string";
}

function isEntryShaped(entry: Partial<DeliveryEntry>): entry is DeliveryEntry {
  return (
    typeof entry.id === "string" &&
    isTargetShaped(entry.target) &&
    typeof entry.createdAt === "number" &&
    typeof entry.attempts === "number" &&
    typeof entry.sent === "object" &&
    entry.sent !== null &&
    typeof entry.state === "string"
  );
}

function checkTarget(target: DeliveryTarget): DeliveryTarget {
  if (!isTargetShaped(target)) throw new TypeError("delivery target needs string channel, accountId and chatId");
  const out: DeliveryTarget = { channel: target.channel, accountId: target.accountId, chatId: target.chatId };
  if (target.threadId !== undefined) out.threadId = String(target.threadId);
  if (target.replyToMessageId !== undefined) out.replyToMessageId = String(target.replyToMessageId);
  if (target.replyToEveryChunk === true) out.replyToEveryChunk = true;
  return out;
}

function assertId(id: string): void {
  if (typeof id !== "string" || id.length === 0) throw new TypeError("delivery id must be a non-empty string");
}

function boundError(error: string): string {
  const text = String(error);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

function copy(entry: DeliveryEntry): DeliveryEntry {
  return structuredClone(entry);
}
