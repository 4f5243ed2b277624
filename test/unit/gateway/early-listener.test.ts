import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { EarlyListener } from "../../../src/gateway/listen.js";

/** One request over a fresh connection; resolves with status and body text. */
function request(port: number, opts: { path: string; method?: string; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: opts.path, method: opts.method ?? "GET", agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads the whole request body, as an app would. */
function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => resolve(body));
  });
}

describe("EarlyListener", () => {
  it("answers liveness 200 and readiness 503 at once while starting", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    try {
      for (const path of ["/health", "/healthz"]) {
        const live = await request(port, { path });
        expect(live.status).toBe(200);
        expect(JSON.parse(live.body)).toEqual({ ok: true, status: "live" });
      }
      for (const path of ["/ready", "/readyz", "/startup", "/startupz?verbose=1"]) {
        const ready = await request(port, { path });
        expect(ready.status).toBe(503);
        expect(JSON.parse(ready.body)).toEqual({ ok: false, status: "starting" });
      }
    } finally {
      await listener.close();
    }
  });

  it("holds other requests until the app attaches, then hands them over in order with their bodies", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    try {
      const first = request(port, { path: "/v1/chat/completions", method: "POST", body: JSON.stringify({ n: 1 }) });
      await tick(20);
      const second = request(port, { path: "/v1/models" });
      await tick(50);
      // Still starting: the probes do not wait behind the held requests.
      expect((await request(port, { path: "/healthz" })).status).toBe(200);

      const seen: string[] = [];
      listener.attachRequests((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        void readBody(req).then((body) => res.end(`app:${body}`));
      });
      expect(await first).toEqual({ status: 200, body: 'app:{"n":1}' });
      expect(await second).toEqual({ status: 200, body: "app:" });
      expect(seen).toEqual(["POST /v1/chat/completions", "GET /v1/models"]);
      // From now on the app answers everything, probes included.
      expect(await request(port, { path: "/readyz" })).toEqual({ status: 200, body: "app:" });
    } finally {
      await listener.close();
    }
  });

  it("answers 503 starting to a request held longer than the hold limit", async () => {
    const listener = new EarlyListener(50);
    const port = await listener.listen(0, "127.0.0.1");
    try {
      const started = Date.now();
      const held = await request(port, { path: "/v1/chat/completions", method: "POST", body: "{}" });
      expect(held.status).toBe(503);
      expect(JSON.parse(held.body)).toEqual({ ok: false, status: "starting" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      // A request that already had its answer is not handed to the app later.
      const seen: string[] = [];
      listener.attachRequests((req, res) => {
        seen.push(req.url ?? "");
        res.end("app");
      });
      expect(await request(port, { path: "/v1/models" })).toEqual({ status: 200, body: "app" });
      expect(seen).toEqual(["/v1/models"]);
    } finally {
      await listener.close();
    }
  });

  it("drops a held request whose client went away", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    try {
      const socket = net.connect(port, "127.0.0.1").on("error", () => {});
      await new Promise((r) => socket.once("connect", r));
      socket.write("GET /gone HTTP/1.1\r\nHost: x\r\n\r\n");
      await tick(30);
      socket.destroy();
      await tick(30);
      const seen: string[] = [];
      listener.attachRequests((req, res) => {
        seen.push(req.url ?? "");
        res.end("app");
      });
      expect((await request(port, { path: "/kept" })).body).toBe("app");
      expect(seen).toEqual(["/kept"]);
    } finally {
      await listener.close();
    }
  });

  it("answers held requests 503 when it closes before the app attached", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    const held = request(port, { path: "/v1/chat/completions", method: "POST", body: "{}" });
    await tick(30);
    await listener.close();
    const answer = await held;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ ok: false, status: "starting" });
  });

  it("hands WebSocket upgrades that arrived early to the upgrade handler", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    try {
      const socket = net.connect(port, "127.0.0.1").on("error", () => {});
      await new Promise((r) => socket.once("connect", r));
      socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
      await tick(30);
      const upgraded = new Promise<string>((resolve) => {
        listener.attachUpgrades((req, upgradeSocket) => {
          upgradeSocket.on("error", () => {});
          resolve(req.url ?? "");
          upgradeSocket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        });
      });
      expect(await upgraded).toBe("/");
      socket.destroy();
    } finally {
      await listener.close();
    }
  });

  it("survives a client that resets while its upgrade waits, and closes with upgrades still waiting", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    const upgrade = "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n";
    const reset = net.connect(port, "127.0.0.1").on("error", () => {});
    await new Promise((r) => reset.once("connect", r));
    reset.write(upgrade);
    await tick(30);
    reset.resetAndDestroy();
    const waiting = net.connect(port, "127.0.0.1").on("error", () => {});
    await new Promise((r) => waiting.once("connect", r));
    waiting.write(upgrade);
    await tick(30);
    const closedByServer = new Promise((r) => waiting.once("close", r));
    await listener.close();
    await closedByServer;
  });

  it("reports a port already in use", async () => {
    const a = new EarlyListener();
    const port = await a.listen(0, "127.0.0.1");
    const b = new EarlyListener();
    await expect(b.listen(port, "127.0.0.1")).rejects.toMatchObject({ code: "EADDRINUSE" });
    await a.close();
  });
});
