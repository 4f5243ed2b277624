import { describe, expect, it } from "vitest";
import { plaintextWebSocketRefusal } from "../../../../src/infra/tls/plaintext-websocket.js";
import { GatewayClient } from "../../../../src/gateway/client.js";

describe("plaintext gateway addresses", () => {
  it("allows wss:// anywhere, and ws:// that stays on this machine, a private network or a tailnet", () => {
    for (const url of [
      "wss://gateway.example.com",
      "wss://8.8.8.8:18789",
      "ws://127.0.0.1:18789",
      "ws://127.9.9.9:1",
      "ws://localhost:18789",
      "ws://[::1]:18789",
      "ws://10.1.2.3:18789",
      "ws://172.20.0.5:18789",
      "ws://192.168.1.10:18789",
      "ws://169.254.3.4:18789",
      "ws://100.100.1.1:18789",
      "ws://[fd12::1]:18789",
      "ws://[fe80::1]:18789",
      "ws://nas.local:18789",
      "ws://box.tail1234.ts.net:18789",
      "ws://[::ffff:192.168.1.2]:1",
    ]) {
      expect(plaintextWebSocketRefusal(url, {}), url).toBeUndefined();
    }
  });

  it("refuses ws:// to public addresses and other names, with the ways to fix it", () => {
    const publicIp = plaintextWebSocketRefusal("ws://8.8.8.8:18789", {});
    expect(publicIp).toContain("refusing to connect to 8.8.8.8:18789 over plaintext ws://");
    expect(publicIp).toContain("Use wss://");
    expect(publicIp).toContain("ssh -N -L 18789:127.0.0.1:18789");
    expect(publicIp).not.toContain("OPENCLAW_ALLOW_INSECURE_PRIVATE_WS");
    expect(plaintextWebSocketRefusal("http://172.32.0.1:1", {})).toBeDefined();
    expect(plaintextWebSocketRefusal("ws://[2001:db8::1]:1", {})).toBeDefined();
    expect(plaintextWebSocketRefusal("ws://gateway.corp.example:18789", {})).toContain("OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 allows a private DNS name");
  });

  it("the break-glass variable allows a private DNS name, never a public address", () => {
    const env = { OPENCLAW_ALLOW_INSECURE_PRIVATE_WS: "1" };
    expect(plaintextWebSocketRefusal("ws://gateway.corp.example:18789", env)).toBeUndefined();
    expect(plaintextWebSocketRefusal("ws://8.8.8.8:18789", env)).toBeDefined();
    expect(plaintextWebSocketRefusal("ws://gateway.corp.example:18789", { OPENCLAW_ALLOW_INSECURE_PRIVATE_WS: "true" })).toBeDefined();
  });

  it("the client opens nothing to such an address, nor to a pinned ws:// one", async () => {
    await expect(GatewayClient.connect({ url: "ws://8.8.8.8:18789", token: "secret", version: "t", timeoutMs: 200 })).rejects.toThrow(/over plaintext ws:\/\//);
    await expect(GatewayClient.connect({ url: "ws://127.0.0.1:1", version: "t", tlsFingerprint: "ab".repeat(32) })).rejects.toThrow("which is not a wss:// address");
  });
});
