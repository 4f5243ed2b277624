import type os from "node:os";
import { describe, expect, it } from "vitest";
import { parsePortNumber, resolveGatewayAddress } from "../../../src/gateway/gateway-address.js";
import { GatewayStartError } from "../../../src/gateway/start-error.js";

describe("resolveGatewayAddress", () => {
  it("port: flag, then $OPENCLAW_GATEWAY_PORT (empty = unset), then gateway.port, then 18789", () => {
    const configured = { port: 18001 };
    expect(resolveGatewayAddress({ portFlag: 0, envPort: "18002", configured }).port).toBe(0);
    expect(resolveGatewayAddress({ envPort: "18002", configured }).port).toBe(18002);
    expect(resolveGatewayAddress({ envPort: "", configured }).port).toBe(18001);
    expect(resolveGatewayAddress({ envPort: undefined, configured: {} }).port).toBe(18789);
  });

  it("bind: flag, then gateway.bind, then loopback; custom takes gateway.customBindHost", () => {
    expect(resolveGatewayAddress({ bindFlag: "lan", envPort: undefined, configured: { bind: "loopback" } }).host).toBe("0.0.0.0");
    expect(resolveGatewayAddress({ envPort: undefined, configured: { bind: "lan" } }).host).toBe("0.0.0.0");
    expect(resolveGatewayAddress({ envPort: undefined, configured: {} }).host).toBe("127.0.0.1");
    expect(resolveGatewayAddress({ envPort: undefined, configured: { bind: "custom", customBindHost: "10.0.0.2" } }).host).toBe("10.0.0.2");
  });

  it("bind tailnet: the host's Tailscale IPv4 address (100.64.0.0/10), else loopback with a note", () => {
    const nic = (address: string, family: "IPv4" | "IPv6" = "IPv4", internal = false) =>
      ({ address, family, internal, netmask: "", mac: "", cidr: null, ...(family === "IPv6" ? { scopeid: 0 } : {}) }) as os.NetworkInterfaceInfo;
    const withInterfaces = (interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]>) =>
      resolveGatewayAddress({ envPort: undefined, configured: { bind: "tailnet" }, listInterfaces: () => interfaces });
    const onTailnet = withInterfaces({
      lo: [nic("127.0.0.1", "IPv4", true)],
      eth0: [nic("192.168.1.20"), nic("100.63.255.1"), nic("100.128.0.1")],
      tailscale0: [nic("fd7a:115c:a1e0::1", "IPv6"), nic("100.101.102.103")],
    });
    expect(onTailnet).toEqual({ host: "100.101.102.103", port: 18789 });
    const offTailnet = withInterfaces({ lo: [nic("127.0.0.1", "IPv4", true)], eth0: [nic("10.0.0.5")] });
    expect(offTailnet).toMatchObject({ host: "127.0.0.1", note: expect.stringContaining('gateway.bind is "tailnet" but this host has no Tailscale address') });
  });

  it("names the variable when $OPENCLAW_GATEWAY_PORT is not a port", () => {
    expect(() => resolveGatewayAddress({ envPort: "http", configured: {} })).toThrow(GatewayStartError);
    expect(() => resolveGatewayAddress({ envPort: "70000", configured: {} })).toThrow('OPENCLAW_GATEWAY_PORT: expected integer 0-65535, got "70000"');
  });
});

describe("parsePortNumber", () => {
  it("takes integers 0-65535 and nothing else", () => {
    expect([parsePortNumber("0"), parsePortNumber("18789"), parsePortNumber("65535")]).toEqual([0, 18789, 65535]);
    expect([parsePortNumber("-1"), parsePortNumber("65536"), parsePortNumber("1.5"), parsePortNumber("http")]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
