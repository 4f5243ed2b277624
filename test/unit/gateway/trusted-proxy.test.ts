import { describe, expect, it } from "vitest";
import { AuthRateLimiter } from "../../../src/gateway/auth/rate-limiter.js";
import type { TrustedProxyPolicy } from "../../../src/gateway/auth/resolve-auth.js";
import { capByProxyScopes, identityOperatorScopes, readProxyIdentity } from "../../../src/gateway/auth/trusted-proxy.js";
import { evaluateConnect } from "../../../src/gateway/handshake.js";
import { attributeIngress } from "../../../src/gateway/ingress-attribution.js";

const policy: TrustedProxyPolicy = {
  userHeader: "x-forwarded-user",
  requiredHeaders: ["x-forwarded-proto"],
  allowUsers: [],
  allowLoopback: false,
  identityScopes: { "Ops@Example.com": ["operator.read"], alice: ["operator.write"] },
};
const proxies = { trustedProxies: ["10.0.0.0/24", "127.0.0.1"], allowRealIpFallback: false };
const ownAddresses = () => new Set(["192.168.1.5"]);

function identity(socketAddress: string, headers: Record<string, string>, over: Partial<TrustedProxyPolicy> = {}, local: () => ReadonlySet<string> | undefined = ownAddresses) {
  const ingress = attributeIngress(socketAddress, headers, proxies);
  return readProxyIdentity({ socketAddress, headers, ingress }, { ...policy, ...over }, proxies, local);
}

const proxied = { "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https", "x-forwarded-user": "alice" };

describe("readProxyIdentity", () => {
  it("believes a listed proxy beyond this host and trims the user", () => {
    expect(identity("10.0.0.2", { ...proxied, "x-forwarded-user": "  alice " })).toEqual({ user: "alice" });
    expect(identity("::ffff:10.0.0.2", proxied)).toEqual({ user: "alice" });
  });
  it("checks the source first: unlisted, loopback without allowLoopback, this host's own address, unreadable addresses", () => {
    expect(identity("10.0.1.2", proxied)).toEqual({ reason: "trusted_proxy_untrusted_source" });
    expect(identity("127.0.0.1", {})).toEqual({ reason: "trusted_proxy_loopback_source" });
    expect(identity("127.0.0.1", proxied, { allowLoopback: true })).toEqual({ user: "alice" });
    expect(identity("10.0.0.2", proxied, {}, () => new Set(["10.0.0.2"]))).toEqual({ reason: "trusted_proxy_local_interface_source" });
    expect(identity("10.0.0.2", proxied, {}, () => undefined)).toEqual({ reason: "trusted_proxy_local_interface_check_failed" });
  });
  it("then the headers: each required one, the user, allowUsers, and a forwarded client beyond this host", () => {
    expect(identity("10.0.0.2", { ...proxied, "x-forwarded-proto": " " })).toEqual({ reason: "trusted_proxy_missing_header_x-forwarded-proto" });
    expect(identity("10.0.0.2", { ...proxied, "x-forwarded-user": "" })).toEqual({ reason: "trusted_proxy_user_missing" });
    expect(identity("10.0.0.2", proxied, { allowUsers: ["bob"] })).toEqual({ reason: "trusted_proxy_user_not_allowed" });
    expect(identity("10.0.0.2", { ...proxied, "x-forwarded-for": "127.0.0.1" })).toEqual({ reason: "proxy_attribution_required" });
  });
});

describe("identity scopes", () => {
  it("match an email key in any case and any other key exactly", () => {
    expect(identityOperatorScopes("ops@example.COM", policy.identityScopes)).toEqual(["operator.read"]);
    expect(identityOperatorScopes("Alice", policy.identityScopes)).toEqual([]);
    expect(identityOperatorScopes("alice", policy.identityScopes)).toEqual(["operator.write"]);
  });
  it("are capped by x-openclaw-scopes; an empty header leaves none", () => {
    expect(capByProxyScopes(["operator.read", "operator.write"], {})).toEqual(["operator.read", "operator.write"]);
    expect(capByProxyScopes(["operator.read", "operator.write"], { "x-openclaw-scopes": " operator.write ,x" })).toEqual(["operator.write"]);
    expect(capByProxyScopes(["operator.read"], { "x-openclaw-scopes": "" })).toEqual([]);
  });
});

describe("evaluateConnect in trusted-proxy mode", () => {
  const auth = { mode: "trusted-proxy" as const, password: "local-pw", trustedProxy: policy };
  const limiter = () => new AuthRateLimiter({ maxAttempts: 5, windowMs: 60_000, lockoutMs: 60_000, exemptLoopback: false });
  const base = { minProtocol: 4, maxProtocol: 4, client: { id: "cli", version: "1", platform: "linux", mode: "cli" } };
  const connect = (params: Record<string, unknown>, proxy: Parameters<typeof evaluateConnect>[0]["proxy"]) =>
    evaluateConnect({ params, nonce: "n", remoteAddress: "198.51.100.7", auth, rateLimiter: limiter(), now: Date.now(), ...(proxy ? { proxy } : {}) });
  const vouched = { identity: { user: "alice" }, localDirect: false, capScopes: (s: readonly string[]) => [...s] };

  it("gives a device-less operator the user's grant, whatever it asks for", () => {
    const result = connect({ ...base, role: "operator", scopes: ["operator.admin"] }, vouched);
    expect(result).toMatchObject({ ok: true, scopes: ["operator.write"], authVia: "trusted-proxy", proxyUser: "alice" });
  });
  it("refuses a device-less node", () => {
    expect(connect({ ...base, role: "node" }, vouched)).toMatchObject({ ok: false, error: { message: expect.stringContaining("device identity required") } });
  });
  it("takes the password only from this host with no forwarding headers", () => {
    const refused = { identity: { reason: "trusted_proxy_loopback_source" as const }, capScopes: (s: readonly string[]) => [...s] };
    expect(connect({ ...base, auth: { password: "local-pw" } }, { ...refused, localDirect: true })).toMatchObject({ ok: true, authVia: "shared-secret" });
    expect(connect({ ...base, auth: { password: "local-pw" } }, { ...refused, localDirect: false })).toMatchObject({
      ok: false,
      error: { details: { authReason: "trusted_proxy_loopback_source" } },
    });
    expect(connect({ ...base, auth: { password: "nope" } }, { ...refused, localDirect: true })).toMatchObject({
      ok: false,
      error: { details: { code: "AUTH_PASSWORD_MISMATCH" } },
    });
  });
});
