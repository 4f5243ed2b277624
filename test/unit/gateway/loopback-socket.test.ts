import net from "node:net";
import { describe, expect, it } from "vitest";
import { EarlyListener } from "../../../src/gateway/listen.js";
import { listenOnLoopback } from "../../../src/gateway/loopback-socket.js";

describe("listenOnLoopback", () => {
  it("opens a listening socket that an EarlyListener adopts and serves on", async () => {
    const handle = listenOnLoopback("127.0.0.1", 0);
    expect(handle).toBeDefined();
    const listener = new EarlyListener();
    const port = await listener.adopt(handle!);
    try {
      expect(port).toBeGreaterThan(0);
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect([res.status, await res.json()]).toEqual([200, { ok: true, status: "live" }]);
    } finally {
      await listener.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  it("is undefined for a port already taken, leaving the error to the usual listen", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      expect(listenOnLoopback("127.0.0.1", (taken.address() as net.AddressInfo).port)).toBeUndefined();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("takes only loopback address literals: a name needs a lookup, another address is not its business", () => {
    expect(listenOnLoopback("localhost", 0)).toBeUndefined();
    expect(listenOnLoopback("0.0.0.0", 0)).toBeUndefined();
    expect(listenOnLoopback("192.168.1.10", 0)).toBeUndefined();
  });
});
