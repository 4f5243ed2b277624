/**
 * Per-address backoff after failed authentication (see docs/protocol.md, "Authentication"):
 * `maxAttempts` wrong credentials inside `windowMs` lock the address out for `lockoutMs`. Only
 * wrong credentials count, never missing ones. Loopback is exempt unless configured otherwise.
 */
export interface RateLimitSettings {
  maxAttempts: number;
  windowMs: number;
  lockoutMs: number;
  exemptLoopback: boolean;
}

interface Bucket {
  failures: number[];
  lockedUntil: number;
}

const MAX_TRACKED_ADDRESSES = 10_000;

export class AuthRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  update(settings: RateLimitSettings): void {
    this.settings = settings;
  }

  /** Milliseconds until this address may try again, or 0 when it may try now. */
  retryAfterMs(address: string): number {
    if (this.isExempt(address)) return 0;
    const bucket = this.buckets.get(address);
    if (!bucket) return 0;
    return Math.max(0, bucket.lockedUntil - this.now());
  }

  recordFailure(address: string): void {
    if (this.isExempt(address)) return;
    const now = this.now();
    const bucket = this.buckets.get(address) ?? { failures: [], lockedUntil: 0 };
    bucket.failures = bucket.failures.filter((t) => now - t < this.settings.windowMs);
    bucket.failures.push(now);
    if (bucket.failures.length >= this.settings.maxAttempts) {
      bucket.lockedUntil = now + this.settings.lockoutMs;
      bucket.failures = [];
    }
    this.buckets.delete(address);
    this.buckets.set(address, bucket);
    this.evictOldest();
  }

  recordSuccess(address: string): void {
    this.buckets.delete(address);
  }

  private isExempt(address: string): boolean {
    return this.settings.exemptLoopback && isLoopbackAddress(address);
  }

  /** A flood of distinct addresses must not grow memory without bound. */
  private evictOldest(): void {
    while (this.buckets.size > MAX_TRACKED_ADDRESSES) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) break;
      this.buckets.delete(oldest);
    }
  }
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith("::ffff:") ? address.slice(7) : address;
  return a === "::1" || a.startsWith("127.");
}
