import { KeyedJsonLinesLog, type KeyedLogCompaction } from "../../infra/keyed-json-lines-log.js";

export interface InboundDedupeCacheOptions {
  /** How long a key is remembered (default 20 minutes, longer than any platform's redelivery window). */
  ttlMs?: number;
  /** Keys kept at most; beyond it the oldest are forgotten first (default 50 000). */
  maxEntries?: number;
  now?: () => number;
}

export const DEFAULT_DEDUPE_TTL_MS = 20 * 60_000;
export const DEFAULT_DEDUPE_MAX_ENTRIES = 50_000;
const MAX_KEY_LENGTH = 1_024;
/** A quiet cache is not rewritten every few claims: at least 1 000 lines, and 4 lines per live key. */
const COMPACTION: KeyedLogCompaction = { factor: 4, minLines: 1_000 };

/** On disk: `{k, t}` records a claim at time t, `{k, r: 1}` a release. */
type DedupeLine = { k: string; t: number } | { k: string; r: 1 };

/**
 * Inbound dedupe keys (`telegram|default|agent:main:main|123||456`) remembered for a TTL, across
 * restarts: a platform that redelivers after a gateway crash (a poller whose offset was not yet
 * committed, a webhook retry, a Discord RESUME replay) must not start a second run.
 *
 * `claim` is check-and-set in one synchronous call, decided by the in-memory map, so two
 * deliveries of one message in this process can never both pass. The line it appends is durable
 * once `whenDurable()` resolves; a plugin acks the platform only after that. The keys live in a
 * plain Map, not an LRU cache, because that Map is also the on-disk log's replay and compaction
 * state and its insertion order is claim order, which expiry relies on.
 */
export class InboundDedupeCache {
  /** key → claim time. Insertion order is claim order, so the oldest keys come first. */
  private readonly claims: Map<string, number>;
  private readonly log: KeyedJsonLinesLog<number, DedupeLine>;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  static open(file: string, options: InboundDedupeCacheOptions = {}): InboundDedupeCache {
    return new InboundDedupeCache(file, options);
  }

  private constructor(file: string, options: InboundDedupeCacheOptions) {
    this.ttlMs = positiveInteger(options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS, "ttlMs");
    this.maxEntries = positiveInteger(options.maxEntries ?? DEFAULT_DEDUPE_MAX_ENTRIES, "maxEntries");
    this.now = options.now ?? Date.now;
    this.log = new KeyedJsonLinesLog<number, DedupeLine>(
      file,
      {
        replay: replayLine,
        recover: restoreTimeOrder,
        prune: (claims) => {
          this.dropExpired(claims);
          this.evictOverflow(claims);
        },
        snapshot: (t, k) => ({ k, t }),
      },
      COMPACTION,
    );
    this.claims = this.log.entries;
  }

  /** True when the key was not seen within the TTL (and records it now); false for a duplicate. */
  claim(key: string): boolean {
    assertKey(key);
    if (this.has(key)) return false;
    const t = this.now();
    // On disk first: if the write throws, the key stays unclaimed and the caller reports the error.
    this.log.append({ k: key, t } satisfies DedupeLine);
    this.claims.delete(key);
    this.claims.set(key, t);
    this.evictOverflow(this.claims);
    this.log.compactIfDue();
    return true;
  }

  /** Forget a claimed key (the message could not be accepted; a redelivery must be processed). */
  release(key: string): void {
    assertKey(key);
    if (!this.claims.has(key)) return;
    this.log.append({ k: key, r: 1 } satisfies DedupeLine);
    this.claims.delete(key);
    this.log.compactIfDue();
  }

  has(key: string): boolean {
    this.dropExpired(this.claims);
    return this.claims.has(key);
  }

  /** Resolves once every claim/release made so far is fsynced. */
  whenDurable(): Promise<void> {
    return this.log.whenDurable();
  }

  close(): void {
    this.log.close();
  }

  get size(): number {
    this.dropExpired(this.claims);
    return this.claims.size;
  }

  /** Claims are in time order, so the expired ones are a prefix of the map. */
  private dropExpired(claims: Map<string, number>): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [key, t] of claims) {
      if (t > cutoff) break;
      claims.delete(key);
    }
  }

  private evictOverflow(claims: Map<string, number>): void {
    let excess = claims.size - this.maxEntries;
    for (const key of claims.keys()) {
      if (excess-- <= 0) break;
      claims.delete(key);
    }
  }
}

function replayLine(claims: Map<string, number>, value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  const line = value as Partial<Record<"k" | "t" | "r", unknown>>;
  if (typeof line.k !== "string") return;
  if (line.r === 1) {
    claims.delete(line.k);
  } else if (typeof line.t === "number" && Number.isFinite(line.t)) {
    claims.delete(line.k);
    claims.set(line.k, line.t);
  }
}

/** A clock step backwards would break the time order dropExpired relies on: restore it. */
function restoreTimeOrder(claims: Map<string, number>): void {
  const sorted = [...claims].sort((a, b) => a[1] - b[1]);
  claims.clear();
  for (const [key, t] of sorted) claims.set(key, t);
}

function assertKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new TypeError("dedupe key must be a non-empty string");
  if (key.length > MAX_KEY_LENGTH) throw new TypeError(`dedupe key is longer than ${MAX_KEY_LENGTH} characters`);
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`InboundDedupeCache ${name} must be a positive integer, got ${value}`);
  return value;
}
