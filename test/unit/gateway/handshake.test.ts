import { describe, expect, it } from "vitest";
import { evaluateConnect } from "../../../src/gateway/handshake.js";
import { AuthRateLimiter } from "../../../src/gateway/auth/rate-limiter.js";

const limiter = () => new AuthRateLimiter({ maxAttempts: 2, windowMs: 60_000, lockoutMs: 60_000, exemptLoopback: true });
const base = {
  minProtocol: 3,
  maxProtocol: 4,
  client: { id: "cli", version: "1", platform: "linux", mode: "cli" },
  auth: { token: "t0ken" },
};
const evaluate = (params: unknown, rateLimiter = limiter(), remoteAddress = "127.0.0.1") =>
  evaluateConnect({ params, nonce: "n", remoteAddress, auth: { mode: "token", token: "t0ken" }, rateLimiter, now: Date.now() });

describe("evaluateConnect", () => {
  it("accepts and negotiates the highest common protocol", () => {
    const r = evaluate(base);
    expect(r.ok && r.protocol).toBe(4);
    const v3 = evaluate({ ...base, maxProtocol: 3 });
    expect(v3.ok && v3.protocol).toBe(3);
  });

  it("rejects missing required client fields and wrong types with a path", () => {
    const r = evaluate({ ...base, client: { id: "cli", platform: "linux", mode: "cli" } });
    expect(!r.ok && r.error.message).toMatch(/^invalid connect params: at client\.version/);
    const t = evaluate({ ...base, minProtocol: "3" });
    expect(!r.ok && !t.ok && t.error.message).toMatch(/at minProtocol/);
  });

  it("rejects non-object params", () => {
    for (const p of [null, 1, "x", []]) expect(evaluate(p).ok).toBe(false);
  });

  it("rejects unsupported roles", () => {
    const r = evaluate({ ...base, role: "worker" });
    expect(!r.ok && r.error.message).toMatch(/unsupported role "worker"/);
  });

  it("node role gets no operator scopes", () => {
    const r = evaluate({ ...base, role: "node", scopes: ["operator.admin"] });
    expect(r.ok && r.scopes).toEqual([]);
  });

  it("counts wrong tokens but not missing ones toward the lockout", () => {
    const rl = limiter();
    const remote = "10.1.2.3";
    evaluate({ ...base, auth: undefined }, rl, remote);
    evaluate({ ...base, auth: undefined }, rl, remote);
    expect(rl.retryAfterMs(remote)).toBe(0);
    evaluate({ ...base, auth: { token: "bad" } }, rl, remote);
    evaluate({ ...base, auth: { token: "bad" } }, rl, remote);
    expect(rl.retryAfterMs(remote)).toBeGreaterThan(0);
    const locked = evaluate(base, rl, remote);
    expect(!locked.ok && locked.error.details?.code).toBe("AUTH_RATE_LIMITED");
  });

  it("auth mode none accepts any client", () => {
    const r = evaluateConnect({ params: { ...base, auth: undefined }, nonce: "n", remoteAddress: "127.0.0.1", auth: { mode: "none" }, rateLimiter: limiter(), now: 0 });
    expect(r.ok).toBe(true);
  });
});
