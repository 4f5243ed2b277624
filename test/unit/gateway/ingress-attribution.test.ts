import { describe, expect, it } from "vitest";
import { attributeIngress, type ProxySettings } from "../../../src/gateway/ingress-attribution.js";

const none: ProxySettings = { trustedProxies: [], allowRealIpFallback: false };
const local: ProxySettings = { trustedProxies: ["127.0.0.1", "::1"], allowRealIpFallback: false };

describe("attributeIngress", () => {
  it("a direct connection is its socket's address: local on loopback (also IPv4-mapped), remote elsewhere", () => {
    expect(attributeIngress("127.0.0.1", {}, none)).toEqual({ kind: "direct-local", clientIp: "127.0.0.1" });
    expect(attributeIngress("::ffff:127.0.0.1", {}, none)).toEqual({ kind: "direct-local", clientIp: "127.0.0.1" });
    expect(attributeIngress("::1", {}, none)).toEqual({ kind: "direct-local", clientIp: "::1" });
    expect(attributeIngress("192.168.1.20", {}, none)).toEqual({ kind: "direct-remote", clientIp: "192.168.1.20" });
  });

  it("forwarding headers from a source no entry trusts make the request unattributable, wherever it comes from", () => {
    expect(attributeIngress("127.0.0.1", { "x-forwarded-for": "203.0.113.5" }, none)).toEqual({ kind: "unattributable-proxy", remoteAddress: "127.0.0.1" });
    expect(attributeIngress("192.168.1.20", { forwarded: "for=203.0.113.5" }, none).kind).toBe("unattributable-proxy");
    expect(attributeIngress("192.168.1.20", { "x-forwarded-for": "203.0.113.5" }, local).kind).toBe("unattributable-proxy");
  });

  it("a trusted proxy's chain names the rightmost hop that is neither this host nor trusted", () => {
    const proxies: ProxySettings = { trustedProxies: ["127.0.0.1", "10.0.0.0/8"], allowRealIpFallback: false };
    expect(attributeIngress("127.0.0.1", { "x-forwarded-for": "198.51.100.1, 203.0.113.5, 10.1.2.3" }, proxies)).toEqual({ kind: "trusted-proxy", clientIp: "203.0.113.5" });
    expect(attributeIngress("10.9.9.9", { "x-forwarded-for": "[2001:db8::5]" }, proxies)).toEqual({ kind: "trusted-proxy", clientIp: "2001:db8::5" });
    expect(attributeIngress("127.0.0.1", { "x-forwarded-for": "127.0.0.1, 10.0.0.1" }, proxies).kind).toBe("unattributable-proxy");
    expect(attributeIngress("127.0.0.1", { "x-forwarded-for": "not-an-ip" }, proxies).kind).toBe("unattributable-proxy");
  });

  it("X-Real-IP names the client only with allowRealIpFallback and no X-Forwarded-For", () => {
    expect(attributeIngress("127.0.0.1", { "x-real-ip": "203.0.113.5" }, local).kind).toBe("unattributable-proxy");
    expect(attributeIngress("127.0.0.1", { "x-real-ip": "203.0.113.5" }, { ...local, allowRealIpFallback: true })).toEqual({ kind: "trusted-proxy", clientIp: "203.0.113.5" });
  });
});

describe("attributeIngress with an IPv4-mapped proxy range", () => {
  it("a mapped range trusts IPv4 peers written either way, and no native IPv6 peer", () => {
    const settings = { trustedProxies: ["::ffff:10.0.0.0/104"], allowRealIpFallback: false };
    const headers = { "x-forwarded-for": "198.51.100.7" };
    expect(attributeIngress("10.1.2.3", headers, settings)).toEqual({ kind: "trusted-proxy", clientIp: "198.51.100.7" });
    expect(attributeIngress("::ffff:10.1.2.3", headers, settings)).toEqual({ kind: "trusted-proxy", clientIp: "198.51.100.7" });
    expect(attributeIngress("fd00::1", headers, settings).kind).toBe("unattributable-proxy");
  });
});
