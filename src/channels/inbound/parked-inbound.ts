import { KeyedJsonLinesLog, type KeyedLogCompaction } from "../../infra/keyed-json-lines-log.js";
import type { InboundMessage } from "../types.js";

/** One message waiting in a debounce window, with the account it came through. */
export interface ParkedMessage {
  channel: string;
  accountId: string;
  message: InboundMessage;
}

/** A handful of messages wait at a time: the file is rewritten once it holds 100 lines. */
const COMPACTION: KeyedLogCompaction = { factor: 4, minLines: 25 };

/** On disk: `{k, channel, accountId, m}` parks a message under its dedupe key, `{k, r: 1}` releases it. */
type ParkedLine = { k: string; channel: string; accountId: string; m: InboundMessage } | { k: string; r: 1 };

/**
 * Messages acknowledged to their platform while they wait in a debounce window
 * (`messages.inbound.debounceMs`). A message is parked (fsynced) before its adapter may commit
 * the platform offset, and released once the turn that merges it is recorded in the idempotency
 * ledger; whatever is still parked at start was cut off by a crash or a stop and is replayed into
 * the window. Only text is parked: a message's files are fetched through the platform, not stored.
 */
export class ParkedInbound {
  private readonly log: KeyedJsonLinesLog<ParkedMessage, ParkedLine>;

  static open(file: string): ParkedInbound {
    return new ParkedInbound(file);
  }

  private constructor(file: string) {
    this.log = new KeyedJsonLinesLog<ParkedMessage, ParkedLine>(
      file,
      {
        replay: replayLine,
        prune: () => {},
        snapshot: (parked, k) => ({ k, channel: parked.channel, accountId: parked.accountId, m: parked.message }),
      },
      COMPACTION,
    );
  }

  /** True when the message can be parked: it carries no files to fetch later. */
  static canPark(message: InboundMessage): boolean {
    return !message.media?.length;
  }

  /** Resolves once the message is on disk under `key`. */
  async park(key: string, parked: ParkedMessage): Promise<void> {
    this.log.append({ k: key, channel: parked.channel, accountId: parked.accountId, m: parked.message });
    this.log.entries.set(key, parked);
    this.log.compactIfDue();
    await this.log.whenDurable();
  }

  /** Forgets the keys (their turn is recorded, or they will never get one). */
  release(keys: readonly string[]): void {
    for (const k of keys) {
      if (!this.log.entries.has(k)) continue;
      this.log.append({ k, r: 1 });
      this.log.entries.delete(k);
    }
    this.log.compactIfDue();
  }

  /** The messages of one account still parked, in the order they were parked. */
  parkedFor(channel: string, accountId: string): { key: string; message: InboundMessage }[] {
    return [...this.log.entries].filter(([, p]) => p.channel === channel && p.accountId === accountId).map(([key, p]) => ({ key, message: p.message }));
  }

  close(): void {
    this.log.close();
  }
}

function replayLine(entries: Map<string, ParkedMessage>, value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  const line = value as Partial<Record<"k" | "channel" | "accountId" | "m" | "r", unknown>>;
  if (typeof line.k !== "string") return;
  if (line.r === 1) entries.delete(line.k);
  else if (typeof line.channel === "string" && typeof line.accountId === "string" && typeof line.m === "object" && line.m !== null) {
    entries.set(line.k, { channel: line.channel, accountId: line.accountId, message: line.m as InboundMessage });
  }
}
