import fs from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import { describe, expect, it } from "vitest";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { connectParams, TestSocket } from "../helpers/ws-client.js";

/**
 * A reverse proxy on the gateway's host makes every client look local: forwarding headers no
 * `gateway.trustedProxies` entry vouches for are refused (403 `proxy_attribution_required`) on the
 * WebSocket and the gateway's authenticated routes, and the health probes give such a request no
 * details. Trusting the proxy (a hot reload) lets the same request in.
 */

const FORWARDED = { "x-forwarded-for": "203.0.113.5", "x-forwarded-proto": "https" };

/** The WebSocket upgrade's answer: `open`, or the status and body of the refusal. */
function upgrade(url: string, headers: Record<string, string>): Promise<{ open: TestSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("open", () => resolve({ open: new TestSocket(ws) }));
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once("error", (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

describe("gateway.trustedProxies", { timeout: 60_000 }, () => {
  it("refuses forwarded requests until the proxy is trusted; then the forwarded client connects", async () => {
    const stateDir = makeTempDir("openclaw-proxies-");
    const configFile = path.join(stateDir, "openclaw.json");
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { mode: "local" } }) } });
    try {
      const refused = await upgrade(gw.url, FORWARDED);
      expect(refused).toEqual({ status: 403, body: expect.stringContaining('"type":"proxy_attribution_required"') });
      expect((refused as { body: string }).body).toContain("Configure gateway.trustedProxies narrowly");
      await gw.waitForOutput(/refused a connection with forwarding headers from 127\.0\.0\.1/, 5_000);

      const direct = await (await fetch(`${gw.httpUrl}/health`)).json();
      expect(direct).toMatchObject({ ok: true, version: expect.any(String) });
      const proxied = await (await fetch(`${gw.httpUrl}/health`, { headers: FORWARDED })).json();
      expect(proxied).toEqual({ ok: true, status: "live" });

      fs.writeFileSync(configFile, JSON.stringify({ gateway: { mode: "local", trustedProxies: ["127.0.0.1", "::1"] } }));
      await gw.waitForOutput(/config reloaded/, 10_000);
      const opened = await upgrade(gw.url, FORWARDED);
      expect("open" in opened).toBe(true);
      const sock = (opened as { open: TestSocket }).open;
      const hello = await sock.connect(connectParams(gw.token));
      expect(hello.ok).toBe(true);
      sock.ws.close();
      // A proxied request still gets no details: it is not this host's.
      expect(await (await fetch(`${gw.httpUrl}/health`, { headers: FORWARDED })).json()).toEqual({ ok: true, status: "live" });
    } finally {
      await gw.stop();
    }
  });
});
