import { describe, expect, it } from "vitest";
import { AuthRateLimiter, isLoopbackAddress } from "../../../src/gateway/auth/rate-limiter.js";

describe("AuthRateLimiter", () => {
  it("locks out after maxAttempts inside the window, then lets the address try again", () => {
    let now = 1_000;
    const rl = new AuthRateLimiter({ maxAttempts: 3, windowMs: 10_000, lockoutMs: 5_000, exemptLoopback: true }, () => now);
    rl.recordFailure("10.0.0.1");
    rl.recordFailure("10.0.0.1");
    expect(rl.retryAfterMs("10.0.0.1")).toBe(0);
    rl.recordFailure("10.0.0.1");
    expect(rl.retryAfterMs("10.0.0.1")).toBe(5_000);
    expect(rl.retryAfterMs("10.0.0.2")).toBe(0);
    now += 5_000;
    expect(rl.retryAfterMs("10.0.0.1")).toBe(0);
  });

  it("forgets failures older than the window", () => {
    let now = 0;
    const rl = new AuthRateLimiter({ maxAttempts: 2, windowMs: 1_000, lockoutMs: 5_000, exemptLoopback: false }, () => now);
    rl.recordFailure("a");
    now = 2_000;
    rl.recordFailure("a");
    expect(rl.retryAfterMs("a")).toBe(0);
  });

  it("exempts loopback when configured", () => {
    const rl = new AuthRateLimiter({ maxAttempts: 1, windowMs: 1_000, lockoutMs: 5_000, exemptLoopback: true });
    rl.recordFailure("127.0.0.1");
    rl.recordFailure("::ffff:127.0.0.1");
    expect(rl.retryAfterMs("127.0.0.1")).toBe(0);
    expect(isLoopbackAddress("::1")).toBe(true);
    expect(isLoopbackAddress("192.168.1.1")).toBe(false);
  });
});
