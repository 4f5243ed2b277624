import { KeyedJsonLinesLog, type KeyedLogCompaction } from "../../infra/keyed-json-lines-log.js";

/** Where a platform message lives: its chat on one account of one channel. */
export interface SentMessageRef {
  channel: string;
  accountId: string;
  chatId: string;
  messageId: string;
}

interface ReplyRun {
  runId: string;
  at: number;
}

type IndexLine = { key: string; runId: string; at: number };

export interface ReplyRunIndexOptions {
  now?: () => number;
  /** How long a sent message stays linked to its run (default 30 days: longer than traces are kept by default). */
  maxAgeMs?: number;
  /** The most links kept; the oldest go first (default 20 000). */
  maxEntries?: number;
}

export const DEFAULT_REPLY_RUN_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
export const DEFAULT_REPLY_RUN_MAX_ENTRIES = 20_000;
const COMPACTION: KeyedLogCompaction = { factor: 2, minLines: 1_000 };

/**
 * Which run wrote each message the bot posted as a run's reply: a reaction to that message is
 * feedback on that run. Kept in its own JSON-lines file beside the delivery ledger (whose
 * finished entries go at its next compaction), so a reaction that comes after a restart still
 * finds its run. Links older than `maxAgeMs`, and the oldest past `maxEntries`, are dropped.
 */
export class ReplyRunIndex {
  private readonly log: KeyedJsonLinesLog<ReplyRun, IndexLine>;
  private readonly now: () => number;

  static open(file: string, options: ReplyRunIndexOptions = {}): ReplyRunIndex {
    return new ReplyRunIndex(file, options);
  }

  private constructor(file: string, options: ReplyRunIndexOptions) {
    this.now = options.now ?? Date.now;
    const maxAgeMs = options.maxAgeMs ?? DEFAULT_REPLY_RUN_MAX_AGE_MS;
    const maxEntries = options.maxEntries ?? DEFAULT_REPLY_RUN_MAX_ENTRIES;
    this.log = new KeyedJsonLinesLog<ReplyRun, IndexLine>(
      file,
      {
        replay: (entries, value) => {
          const line = value as Partial<IndexLine> | null;
          if (typeof line?.key === "string" && typeof line.runId === "string" && typeof line.at === "number") entries.set(line.key, { runId: line.runId, at: line.at });
        },
        prune: (entries) => {
          const oldest = this.now() - maxAgeMs;
          for (const [key, run] of entries) if (run.at < oldest) entries.delete(key);
          // Insertion order is sending order: the first keys are the oldest.
          for (const key of entries.keys()) {
            if (entries.size <= maxEntries) break;
            entries.delete(key);
          }
        },
        snapshot: (run, key) => ({ key, runId: run.runId, at: run.at }),
      },
      COMPACTION,
    );
  }

  /** `message` was sent as (part of) `runId`'s reply. A message already linked keeps its first run. */
  record(message: SentMessageRef, runId: string): void {
    const key = keyOf(message);
    if (this.log.entries.has(key)) return;
    const at = this.now();
    this.log.append({ key, runId, at });
    this.log.entries.set(key, { runId, at });
    this.log.compactIfDue();
  }

  /** The run whose reply `message` was part of, when the bot sent it as one and the link is still kept. */
  runOf(message: SentMessageRef): string | undefined {
    return this.log.entries.get(keyOf(message))?.runId;
  }

  whenDurable(): Promise<void> {
    return this.log.whenDurable();
  }

  close(): void {
    this.log.close();
  }
}

function keyOf(message: SentMessageRef): string {
  return JSON.stringify([message.channel, message.accountId, message.chatId, message.messageId]);
}
