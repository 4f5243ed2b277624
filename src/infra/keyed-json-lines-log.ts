import fs from "node:fs";
import { JsonLinesLog } from "./json-lines-log.js";

/**
 * What an owner's lines mean. The log owns the file's rules (replay in file order, unreadable
 * lines skipped, compaction at open and as the file grows); the owner says how a line changes
 * its entries and which entries are still worth keeping.
 */
export interface KeyedLogSchema<V, L> {
  /** Applies one line read back from the file; a line it does not recognise changes nothing. */
  replay(entries: Map<string, V>, line: unknown): void;
  /** After replay, before the compaction at open: settles what the last process left half done. */
  recover?(entries: Map<string, V>): void;
  /** Before every compaction: drops the entries no longer worth a line (expired, finished, over a cap). */
  prune(entries: Map<string, V>): void;
  /** The one line that stands for a kept entry in the compacted file. */
  snapshot(value: V, key: string): L;
}

/**
 * The file is compacted once it holds more than `factor` times the entries kept at the last
 * compaction, but never for fewer than `minLines` lines: appends stay cheap, and the file stays
 * within a constant factor of what it must remember.
 */
export interface KeyedLogCompaction {
  factor: number;
  minLines: number;
}

/**
 * Keyed state kept in memory and in an append-only JSON-lines file (a JsonLinesLog): the inbound
 * dedupe keys, the outbound delivery ledger, the idempotency ledger. A change is appended to the
 * file first, then applied to `entries`, then `compactIfDue()` runs, so a compaction always
 * includes it. Durability is the JsonLinesLog's: an append reaches the page cache before it
 * returns, `whenDurable()` resolves after a shared fsync, `syncNow()` blocks on one, and a
 * compaction is an atomic, fsynced rewrite.
 *
 * Opening an existing file replays it and compacts it at once, which also removes a torn last
 * line before anything is appended behind it. A missing file stays missing until the first
 * append (a fresh state directory pays no fsync at start-up).
 */
export class KeyedJsonLinesLog<V, L> {
  /** The live entries, in the order the owner inserted them. */
  readonly entries = new Map<string, V>();
  private readonly log: JsonLinesLog;
  private compactAtLines: number;

  constructor(
    readonly file: string,
    private readonly schema: KeyedLogSchema<V, L>,
    private readonly compaction: KeyedLogCompaction,
  ) {
    const existed = fs.existsSync(file);
    for (const line of JsonLinesLog.read(file).values) schema.replay(this.entries, line);
    schema.recover?.(this.entries);
    this.log = new JsonLinesLog(file);
    this.compactAtLines = this.threshold();
    if (existed) this.compact();
  }

  /** Writes one change line (not yet applied to `entries`: the caller does that next). */
  append(line: L): void {
    this.log.append(line);
  }

  /** After a change is both appended and applied: compacts when the file has outgrown its threshold. */
  compactIfDue(): void {
    if (this.log.lineCount > this.compactAtLines) this.compact();
  }

  /** Prunes the entries, then replaces the file with one line per kept entry. */
  compact(): void {
    this.schema.prune(this.entries);
    this.log.rewrite(Array.from(this.entries, ([key, value]) => this.schema.snapshot(value, key)));
    this.compactAtLines = this.threshold();
  }

  /** Blocks until every line appended so far is on disk. */
  syncNow(): void {
    this.log.syncNow();
  }

  /** Resolves once every line appended so far is on disk. */
  whenDurable(): Promise<void> {
    return this.log.whenDurable();
  }

  close(): void {
    this.log.close();
  }

  private threshold(): number {
    return this.compaction.factor * Math.max(this.entries.size, this.compaction.minLines);
  }
}
