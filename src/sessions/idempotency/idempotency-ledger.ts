import path from "node:path";
import { ensurePrivateDir } from "../../infra/paths.js";
import {
  boundResult,
  boundSummary,
  DEFAULT_MAX_RECORDS,
  DEFAULT_TTL_MS,
  MAX_KEY_LENGTH,
  type BeginOutcome,
  type BeginParams,
  type CompleteParams,
  type IdempotencyRecord,
} from "./idempotency-record.js";
import { applyBegin, applyCompletion, compactedLine, replayLedgerLine, type LedgerLine } from "./ledger-file.js";
import { KeyedJsonLinesLog } from "../../infra/keyed-json-lines-log.js";

type BeginLine = Extract<LedgerLine, { op: "begin" }>;
type CompleteLine = Extract<LedgerLine, { op: "complete" }>;

export interface IdempotencyLedgerOptions {
  now?: () => number;
  ttlMs?: number;
  maxRecords?: number;
}

/**
 * Remembers every accepted idempotency key, on disk, so a client that re-sends a request
 * (network retry, webhook redelivery, reconnect after a gateway restart) gets the first
 * attempt's status instead of a second run — the duplicated replies and double tool calls
 * OpenClaw users report. `begin` is check-and-set in one synchronous call, so two requests
 * with the same key in one process can never both start.
 *
 * File: `<state>/gateway/idempotency.jsonl`. Opening it compacts it (one line per live
 * record), drops records older than the TTL, keeps the newest `maxRecords`, and marks runs that
 * began but never completed as `interrupted`.
 */
export class IdempotencyLedger {
  readonly file: string;
  private readonly records: Map<string, IdempotencyRecord>;
  private readonly log: KeyedJsonLinesLog<IdempotencyRecord, LedgerLine>;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxRecords: number;

  constructor(stateDir: string, options: IdempotencyLedgerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
    const dir = path.join(path.resolve(stateDir), "gateway");
    ensurePrivateDir(dir);
    this.file = path.join(dir, "idempotency.jsonl");
    // Memory stays bounded at once (see afterAppend); the file is compacted once it holds about twice the cap.
    this.log = new KeyedJsonLinesLog<IdempotencyRecord, LedgerLine>(
      this.file,
      {
        replay: replayLedgerLine,
        recover: (records) => {
          const now = this.now();
          for (const record of records.values()) {
            if (record.status === "in_flight") Object.assign(record, { status: "interrupted", completedAt: now });
          }
        },
        prune: (records) => this.dropExpired(records),
        snapshot: compactedLine,
      },
      { factor: 2, minLines: this.maxRecords },
    );
    this.records = this.log.entries;
  }

  /**
   * Claims `key` for a new run. `{ fresh: true }` means the caller must start it; otherwise
   * the earlier record is returned and nothing must be started. Durable before it returns.
   * `params.merged` keys not already recorded are claimed for the same run in the same line.
   */
  begin(key: string, params: BeginParams, options: { deferSync?: boolean } = {}): BeginOutcome {
    assertKey(key);
    const existing = this.get(key);
    if (existing) return { fresh: false, record: existing };
    const merged = [...new Set(params.merged ?? [])].filter((k) => k !== key && this.live(k) === undefined);
    merged.forEach(assertKey);
    const line: BeginLine = {
      op: "begin",
      key,
      runId: params.runId,
      sessionKey: params.sessionKey,
      method: params.method,
      at: this.now(),
      ...(merged.length > 0 ? { merged } : {}),
    };
    // On disk first: if the write fails the key stays free and the caller can report an error.
    this.append(line);
    if (!options.deferSync) this.log.syncNow();
    applyBegin(this.records, line);
    const record = { ...this.records.get(key)! };
    this.afterAppend();
    return { fresh: true, record };
  }

  /**
   * Records how the run for `key` ended. A record that already has an outcome keeps it (the
   * first outcome is what duplicates were, or will be, told). Returns the record, or undefined
   * for an unknown or expired key.
   */
  complete(key: string, params: CompleteParams): IdempotencyRecord | undefined {
    const record = this.live(key);
    if (!record) return undefined;
    if (record.status !== "in_flight") return { ...record };
    const summary = boundSummary(params.summary);
    const line: CompleteLine = { op: "complete", key, status: params.status, at: this.now(), ...(summary !== undefined ? { summary } : {}), ...boundResult(params.result) };
    // Not synced: a lost completion reads back as "interrupted", which still never runs twice.
    this.append(line);
    applyCompletion(this.records, line);
    this.afterAppend();
    return { ...record };
  }

  /** Resolves once every line appended so far is on disk (after a `deferSync` begin). */
  whenDurable(): Promise<void> {
    return this.log.whenDurable();
  }

  get(key: string): IdempotencyRecord | undefined {
    const record = this.live(key);
    return record ? { ...record } : undefined;
  }

  get size(): number {
    return this.records.size;
  }

  /** Rewrites the file with only the live records (also done on open and as the file grows). */
  compact(): void {
    this.log.compact();
  }

  close(): void {
    this.log.close();
  }

  private append(line: LedgerLine): void {
    this.log.append(line);
  }

  private live(key: string): IdempotencyRecord | undefined {
    const record = this.records.get(key);
    if (!record) return undefined;
    if (this.now() - record.startedAt > this.ttlMs) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  private afterAppend(): void {
    if (this.records.size > this.maxRecords) this.dropExpired(this.records);
    this.log.compactIfDue();
  }

  /** Drops records past the TTL, then the oldest beyond `maxRecords` (the map is in start order). */
  private dropExpired(records: Map<string, IdempotencyRecord>): void {
    const cutoff = this.now() - this.ttlMs;
    // Start order means the expired records come first: stop at the first live one, so a full
    // ledger does not walk all its records on every append.
    for (const [key, record] of records) {
      if (record.startedAt >= cutoff) break;
      records.delete(key);
    }
    let excess = records.size - this.maxRecords;
    for (const key of records.keys()) {
      if (excess-- <= 0) break;
      records.delete(key);
    }
  }
}

function assertKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new TypeError("idempotency key must be a non-empty string");
  if (key.length > MAX_KEY_LENGTH) throw new TypeError(`idempotency key is longer than ${MAX_KEY_LENGTH} characters`);
}
