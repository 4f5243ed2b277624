import { describe, expect, it } from "vitest";
import { AuthRateLimiter } from "../../../src/gateway/auth/rate-limiter.js";
import { resolveAgentId } from "../../../src/gateway/http/openai/agent-target.js";
import { checkHttpAuth } from "../../../src/gateway/http/openai/bearer-auth.js";
import { finishReason, usageOf } from "../../../src/gateway/http/openai/completion-shapes.js";
import { OpenAiRequestError, turnErrorResponse } from "../../../src/gateway/http/openai/openai-errors.js";
import { safeErrorMessage } from "../../../src/gateway/http/openai/safe-error-message.js";
import { deriveSessionKey } from "../../../src/gateway/http/openai/session-key.js";

describe("deriveSessionKey", () => {
  it("refuses control characters and other junk in the header", () => {
    for (const bad of ["a\u0001b", "a\nb", "a\u007fb", "ключ", "a b", "a%2Fb"]) {
      expect(() => deriveSessionKey(bad, undefined, "main"), bad).toThrow(OpenAiRequestError);
    }
  });
  it("keeps valid keys verbatim", () => {
    expect(deriveSessionKey("agent:main:telegram:dm:42", "alice", "main")).toEqual({ sessionKey: "agent:main:telegram:dm:42", stateless: false });
    expect(deriveSessionKey("my-app/thread.7", undefined, "main").sessionKey).toBe("my-app/thread.7");
  });
  it("marks only user-less, header-less requests stateless", () => {
    expect(deriveSessionKey(undefined, "u1", "main").stateless).toBe(false);
    expect(deriveSessionKey(undefined, undefined, "main").stateless).toBe(true);
    expect(deriveSessionKey(undefined, "a..b", "main").sessionKey).toMatch(/openai-user:sha256-/);
  });
});

describe("resolveAgentId", () => {
  const agents = [
    { id: "main", isDefault: true },
    { id: "x", isDefault: false },
  ];
  it("blank header falls back to model; unknown names throw", () => {
    expect(resolveAgentId("openclaw/x", "  ", agents)).toBe("x");
    expect(() => resolveAgentId("openclaw/", undefined, agents)).toThrow(/does not exist/);
    expect(() => resolveAgentId("openclaw/bad id", undefined, agents)).toThrow(OpenAiRequestError);
  });
  it("uses main when no agent is listed at all", () => {
    expect(resolveAgentId(undefined, undefined, [])).toBe("main");
  });
});

describe("checkHttpAuth", () => {
  const limiter = () => new AuthRateLimiter({ maxAttempts: 2, windowMs: 60_000, lockoutMs: 1_500, exemptLoopback: false });
  const noProxies = { trustedProxies: [], allowRealIpFallback: false };
  const from = (address: string, authorization: string) => ({
    socketAddress: address,
    headers: { authorization },
    ingress: { kind: "direct-remote" as const, clientIp: address },
  });
  it("never passes a token/password mode without a configured secret", () => {
    expect(checkHttpAuth(from("10.0.0.1", "Bearer "), { mode: "token" }, limiter(), noProxies)).toEqual({ ok: false, status: 401 });
    expect(checkHttpAuth(from("10.0.0.1", "Bearer anything"), { mode: "password" }, limiter(), noProxies)).toEqual({ ok: false, status: 401 });
  });
  it("rounds Retry-After up to whole seconds", () => {
    const rl = limiter();
    const auth = { mode: "token" as const, token: "t" };
    checkHttpAuth(from("10.0.0.2", "Bearer a"), auth, rl, noProxies);
    checkHttpAuth(from("10.0.0.2", "Bearer b"), auth, rl, noProxies);
    expect(checkHttpAuth(from("10.0.0.2", "Bearer t"), auth, rl, noProxies)).toEqual({ ok: false, status: 429, retryAfterSeconds: 2 });
  });
});

describe("safeErrorMessage", () => {
  it("keeps the first line, blanks secrets, bounds the length", () => {
    expect(safeErrorMessage("bad\n    at x (/a.ts:1:1)")).toBe("bad");
    expect(safeErrorMessage("uses tok-123456 here", ["tok-123456"])).toBe("uses [redacted] here");
    expect(safeErrorMessage("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [redacted]");
    expect(safeErrorMessage('{"api_key": "xyz"}')).toBe('{"api_key": "[redacted]"}');
    expect(safeErrorMessage("x".repeat(2000))).toHaveLength(501);
    expect(safeErrorMessage(undefined)).toBe("internal error");
  });
});

describe("shapes", () => {
  it("maps stop reasons, usage and error kinds", () => {
    expect(finishReason({ stopReason: "length" })).toBe("length");
    expect(finishReason({ stopReason: "stop" })).toBe("stop");
    expect(finishReason({ stopReason: "toolUse", toolCalls: [{ id: "call_1", name: "lookup", arguments: {} }] })).toBe("tool_calls");
    expect(turnErrorResponse("tool_choice_unmet")).toEqual({ status: 502, code: "tool_choice_unmet" });
    expect(usageOf({ usage: { input: -1, output: Number.NaN } })).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(turnErrorResponse("network")).toEqual({ status: 502, code: "network" });
    expect(turnErrorResponse("bad_request")).toEqual({ status: 502, code: "bad_request" });
    expect(turnErrorResponse("loop")).toEqual({ status: 500, code: "loop" });
    expect(turnErrorResponse("shutdown")).toEqual({ status: 503, code: "gateway_shutting_down" });
    expect(turnErrorResponse("queue_full")).toEqual({ status: 429, code: "queue_full" });
  });
});
