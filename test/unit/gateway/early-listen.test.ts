import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { earlyAddress, listenEarly } from "../../../src/gateway/early-listen.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A state dir holding `openclaw.json` with this gateway section (none when undefined). */
function stateWith(gateway?: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-early-"));
  dirs.push(dir);
  if (gateway) fs.writeFileSync(path.join(dir, "openclaw.json"), JSON.stringify({ gateway }));
  return dir;
}

describe("earlyAddress", () => {
  it("takes the port from --port, else $OPENCLAW_GATEWAY_PORT, else gateway.port, else 18789", () => {
    const configured = stateWith({ port: 18001 });
    const env = { OPENCLAW_STATE_DIR: configured, OPENCLAW_GATEWAY_PORT: "18002" };
    expect(earlyAddress({ port: "18003" }, env)).toEqual({ host: "127.0.0.1", port: 18003 });
    expect(earlyAddress({}, env)).toEqual({ host: "127.0.0.1", port: 18002 });
    expect(earlyAddress({}, { ...env, OPENCLAW_GATEWAY_PORT: "" })).toEqual({ host: "127.0.0.1", port: 18001 });
    expect(earlyAddress({}, { OPENCLAW_STATE_DIR: stateWith() })).toEqual({ host: "127.0.0.1", port: 18789 });
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith() })).toEqual({ host: "127.0.0.1", port: 0 });
  });

  it("leaves a port it cannot read to the full start-up, which reports it", () => {
    const env = { OPENCLAW_STATE_DIR: stateWith() };
    expect(earlyAddress({ port: "http" }, env)).toBeUndefined();
    expect(earlyAddress({}, { ...env, OPENCLAW_GATEWAY_PORT: "99999" })).toBeUndefined();
  });

  it("opens early only on loopback: --bind first, then gateway.bind", () => {
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith({ bind: "lan" }) })).toBeUndefined();
    expect(earlyAddress({ port: "0", bind: "lan" }, { OPENCLAW_STATE_DIR: stateWith() })).toBeUndefined();
    expect(earlyAddress({ port: "0", bind: "loopback" }, { OPENCLAW_STATE_DIR: stateWith({ bind: "lan" }) })).toEqual({ host: "127.0.0.1", port: 0 });
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith({ bind: "custom", customBindHost: "192.168.1.5" }) })).toBeUndefined();
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith({ bind: "custom", customBindHost: "127.0.0.1" }) })).toEqual({
      host: "127.0.0.1",
      port: 0,
    });
    // 127.0.0.2 gets 127.0.0.1 beside it: both open in the full start-up.
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith({ bind: "custom", customBindHost: "127.0.0.2" }) })).toBeUndefined();
    // Not a bind mode: the full load rejects it.
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith({ bind: "127.0.0.1" }) })).toBeUndefined();
  });

  it("opens nothing for a client machine's config unless --allow-unconfigured", () => {
    const env = { OPENCLAW_STATE_DIR: stateWith({ mode: "remote" }) };
    expect(earlyAddress({ port: "0" }, env)).toBeUndefined();
    expect(earlyAddress({ port: "0", allowUnconfigured: true }, env)).toEqual({ host: "127.0.0.1", port: 0 });
  });

  it("leaves a config it cannot read quickly (JSON5) to the full start-up", () => {
    const dir = stateWith();
    fs.writeFileSync(path.join(dir, "openclaw.json5"), "{ gateway: { port: 18004 } }");
    expect(earlyAddress({ port: "0" }, { OPENCLAW_STATE_DIR: dir })).toBeUndefined();
  });
});

describe("listenEarly", () => {
  it("listens where earlyAddress says and reports the bound port", async () => {
    const early = await listenEarly({ port: "0" }, { OPENCLAW_STATE_DIR: stateWith() });
    expect(early).toMatchObject({ host: "127.0.0.1", port: 0 });
    try {
      expect(early!.boundPort).toBeGreaterThan(0);
      expect(early!.portOpenMs).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${early!.boundPort}/health`)).status).toBe(200);
    } finally {
      await early?.listener.close();
    }
  });

  it("gives up quietly when the port is taken, leaving the error to the full start-up", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      expect(await listenEarly({ port: String(port) }, { OPENCLAW_STATE_DIR: stateWith() })).toBeUndefined();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
