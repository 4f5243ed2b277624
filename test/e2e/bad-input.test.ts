import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { TestSocket, connectParams, openOperator } from "../helpers/ws-client.js";

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway({ env: { OPENCLAW_HANDSHAKE_TIMEOUT_MS: "400", OPENCLAW_HTTP_FIRST_REQUEST_TIMEOUT_MS: "500" } });
});
afterAll(async () => {
  await gw?.stop();
});

describe("idle connections", () => {
  it("a TCP connection that never sends a request is closed; one that does is served", async () => {
    const port = Number(new URL(gw.url).port);
    const silent = net.connect(port, "127.0.0.1");
    silent.on("error", () => {});
    const closed = new Promise<void>((resolve) => silent.once("close", () => resolve()));
    await closed;
    const res = await fetch(`${gw.httpUrl}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe("before hello", () => {
  it("unauthenticated connections are capped: past 256 pending handshakes an upgrade gets 503", async () => {
    // Its own gateway: the shared one times handshakes out after 400 ms, sooner than 256 open.
    const patient = await startGateway();
    try {
      const pending = await Promise.all(Array.from({ length: 256 }, () => TestSocket.open(patient.url)));
      await Promise.all(pending.map((s) => s.challenge()));
      await expect(TestSocket.open(patient.url)).rejects.toThrow(/503/);
      for (const s of pending) s.ws.terminate();
      // Slots free up as those sockets go; an operator connects again.
      await waitForUpgrade(patient.url);
      const { sock } = await openOperator(patient.url, patient.token);
      expect((await sock.request("health", {})).ok).toBe(true);
      sock.close();
    } finally {
      await patient.stop();
    }
  });

  it("a non-JSON first frame closes the socket", async () => {
    const sock = await TestSocket.open(gw.url);
    await sock.challenge();
    sock.send("this is not json");
    expect((await sock.closed).code).toBe(1008);
  });

  it("a first request other than connect gets an error, then close", async () => {
    const sock = await TestSocket.open(gw.url);
    await sock.challenge();
    sock.send({ type: "req", id: "1", method: "health", params: {} });
    const res = await sock.response("1");
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect((await sock.closed).code).toBe(1008);
  });

  it("no connect within the handshake timeout closes the socket", async () => {
    const sock = await TestSocket.open(gw.url);
    await sock.challenge();
    const closed = await sock.closed;
    expect(closed).toEqual({ code: 1008, reason: "handshake timeout" });
  });

  it("a frame over the 64 KiB pre-auth limit closes with 1009", async () => {
    const sock = await TestSocket.open(gw.url);
    await sock.challenge();
    sock.send({ type: "req", id: "1", method: "connect", params: { pad: "x".repeat(70 * 1024) } });
    expect((await sock.closed).code).toBe(1009);
  });

  it("an oversized frame is refused from its header: 1009 before the payload is sent", async () => {
    const socket = await rawUpgrade(new URL(gw.url).port);
    const closeFrame = new Promise<Buffer>((resolve) => {
      let seen = Buffer.alloc(0);
      socket.on("data", (d: Buffer) => {
        seen = Buffer.concat([seen, d]);
        const at = seen.indexOf(0x88); // FIN + close opcode
        if (at >= 0 && seen.length >= at + 4) resolve(seen.subarray(at));
      });
    });
    // A masked text frame announcing 24 MiB, followed by only 4 KiB of it.
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(24 * 1024 * 1024), 2);
    randomBytes(4).copy(header, 10);
    socket.write(Buffer.concat([header, Buffer.alloc(4096, 0x20)]));
    const frame = await closeFrame;
    expect(frame.readUInt16BE(2)).toBe(1009);
    socket.destroy();
  });

  it("after hello-ok a frame over the pre-auth limit is accepted", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const res = await sock.request("health", { pad: "x".repeat(1024 * 1024) });
    expect(res.error?.code).toBe("INVALID_REQUEST");
    expect((await sock.request("health", {})).ok).toBe(true);
    sock.close();
  });

  it("connect params with an unknown field are INVALID_REQUEST", async () => {
    const sock = await TestSocket.open(gw.url);
    const res = await sock.connect({ ...connectParams(gw.token), surprise: true });
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect(res.error.message).toMatch(/invalid connect params: .*surprise.*unexpected property/);
    expect((await sock.closed).code).toBe(1008);
  });

  it("an unknown client id is rejected", async () => {
    const sock = await TestSocket.open(gw.url);
    const res = await sock.connect(connectParams(gw.token, { client: { id: "evil", version: "1", platform: "x", mode: "cli" } }));
    expect(res.error.message).toMatch(/invalid connect params: at client\.id/);
  });
});

describe("after hello", () => {
  it("a malformed request gets an error response and the connection stays usable", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    sock.send("{not json");
    const bad = await sock.waitFor((f) => f.type === "res" && f.ok === false && /not JSON/.test(f.error.message));
    expect(bad.error.code).toBe("INVALID_REQUEST");
    sock.send({ type: "req", id: "m1", params: {} });
    expect((await sock.response("m1")).error.message).toMatch(/invalid request frame/);
    sock.send({ type: "res", id: "weird" });
    expect((await sock.response("weird")).error.message).toMatch(/unsupported frame type "res"/);
    sock.send(Buffer.from([1, 2, 3]));
    await sock.waitFor((f) => f.ok === false && /binary frames/.test(f.error?.message));
    const health = await sock.request("health", {});
    expect(health.ok).toBe(true);
    sock.close();
  });

  it("an unknown method is an error response", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const res = await sock.request("no.such.method", {});
    expect(res.error).toMatchObject({ code: "INVALID_REQUEST", message: "unknown method: no.such.method" });
    sock.close();
  });

  it("unknown params fields are INVALID_REQUEST", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const res = await sock.request("health", { probe: true, bogus: 1 });
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect(res.error.message).toMatch(/^invalid health params: .*bogus/);
    const wrongType = await sock.request("health", { probe: "yes" });
    expect(wrongType.error.code).toBe("INVALID_REQUEST");
    sock.close();
  });

  it("a path-like or control-character session key or agent id is INVALID_REQUEST naming the fault, and nothing is written", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const other = await openOperator(gw.url, gw.token);
    const agentsDir = path.join(gw.stateDir, "agents");
    const before = listTree(agentsDir);
    const refused: [string, Record<string, unknown>, RegExp][] = [
      ["chat.send", { sessionKey: "../../etc/passwd", message: "hi", idempotencyKey: "bad-key-1" }, /session key contains a "\." or "\.\." path segment/],
      ["chat.send", { sessionKey: "a\u0000b", message: "hi", idempotencyKey: "bad-key-2" }, /session key contains a control character/],
      ["chat.send", { sessionKey: "agent::x", message: "hi", idempotencyKey: "bad-key-3" }, /has an empty part/],
      ["chat.send", { sessionKey: "s1", agentId: "../../etc", message: "hi", idempotencyKey: "bad-key-4" }, /unknown agent "\.\.\/\.\.\/etc"/],
      ["agent", { sessionKey: "../x", message: "hi", idempotencyKey: "bad-key-5" }, /path segment/],
      ["sessions.get", { key: "../x" }, /path segment/],
      ["sessions.preview", { keys: ["\u0000"] }, /control character/],
      ["sessions.list", { agentId: "../x" }, /agent id "\.\.\/x" is not valid/],
      ["tools.effective", { sessionKey: "../x" }, /path segment/],
    ];
    for (const [method, params, message] of refused) {
      const res = await sock.request(method, params);
      expect(res.error, method).toMatchObject({ code: "INVALID_REQUEST" });
      expect(res.error.message, method).toMatch(message);
      expect(res.error.retryable, method).toBeUndefined();
    }
    expect(listTree(agentsDir)).toEqual(before);
    expect((await other.sock.request("health", {})).ok).toBe(true);
    sock.close();
    other.sock.close();
  });

  it("a method that starts or queues work for an agent the config does not define is refused, and nothing is written", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const before = listTree(gw.stateDir).filter((f) => !f.startsWith("logs"));
    const refused: [string, Record<string, unknown>][] = [
      ["chat.send", { sessionKey: "s1", agentId: "nobody", message: "hi", idempotencyKey: "ghost-1" }],
      ["agent", { agentId: "Nobody", message: "hi", idempotencyKey: "ghost-2" }],
      ["sessions.create", { key: "c1", agentId: "nobody" }],
      ["wake", { mode: "now", text: "check the inbox", agentId: "nobody" }],
      ["wake", { mode: "next-heartbeat", text: "check the inbox", sessionKey: "agent:nobody:main" }],
    ];
    for (const [method, params] of refused) {
      const res = await sock.request(method, params);
      expect(res.error, method).toMatchObject({ code: "INVALID_REQUEST" });
      expect(res.error.message, method).toMatch(/^unknown agent "nobody"; known agents: main \(define it under agents\.entries to use it\)$/i);
    }
    expect(fs.existsSync(path.join(gw.stateDir, "agents", "nobody"))).toBe(false);
    expect(listTree(gw.stateDir).filter((f) => !f.startsWith("logs"))).toEqual(before);
    // The same request for a configured agent is served.
    const ok = await sock.request("sessions.create", { key: "c1", agentId: "main" });
    expect(ok.payload).toMatchObject({ ok: true, key: "agent:main:c1" });
    sock.close();
  });

  it("a second connect is refused without dropping the connection", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const res = await sock.request("connect", connectParams(gw.token));
    expect(res.error.message).toBe("already connected");
    expect((await sock.request("health", {})).ok).toBe(true);
    sock.close();
  });

  it("a frame over maxPayload closes with 1009", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    sock.send({ type: "req", id: "big", method: "health", params: { pad: "x".repeat(25 * 1024 * 1024 + 16) } });
    expect((await sock.closed).code).toBe(1009);
  });

  it("1,000 garbage frames from one client leave another client unaffected", async () => {
    const noisy = await openOperator(gw.url, gw.token);
    const calm = await openOperator(gw.url, gw.token);
    const garbage = ["", "null", "[]", "42", '{"type":"req"}', '{"type":"req","id":"","method":"x"}', "\u0000\u0001", '{"id":{"$gt":1}}'];
    for (let i = 0; i < 1000; i++) noisy.sock.send(garbage[i % garbage.length]!);
    const started = Date.now();
    const res = await calm.sock.request("health", {});
    expect(res.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The noisy client is still served too, after its garbage.
    await noisy.sock.waitFor(() => noisy.sock.frames.filter((f) => f.type === "res" && f.ok === false).length >= 1000, 10_000);
    expect((await noisy.sock.request("health", {})).ok).toBe(true);
    noisy.sock.close();
    calm.sock.close();
  });
});

describe("tick", () => {
  let fast: GatewayProcess;
  beforeAll(async () => {
    fast = await startGateway({ env: { OPENCLAW_TICK_INTERVAL_MS: "150" } });
  });
  afterAll(async () => {
    await fast?.stop();
  });

  it("pushes tick events with increasing per-connection seq and advertises the interval", async () => {
    const { sock, hello } = await openOperator(fast.url, fast.token);
    expect(hello.policy.tickIntervalMs).toBe(150);
    await sock.waitFor(() => sock.frames.filter((f) => f.event === "tick").length >= 3, 3_000);
    const ticks = sock.frames.filter((f) => f.event === "tick");
    expect(ticks[1]!.seq).toBeGreaterThan(ticks[0]!.seq);
    expect(ticks[2]!.payload.ts).toBeGreaterThanOrEqual(ticks[1]!.payload.ts);
    sock.close();
  });
});

/** A WebSocket upgrade over a plain TCP socket, for frames no client library will send. */
function rawUpgrade(port: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    socket.once("error", reject);
    socket.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    let head = "";
    const onData = (d: Buffer) => {
      head += d.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      if (!head.startsWith("HTTP/1.1 101")) return reject(new Error(head.split("\r\n")[0]));
      resolve(socket);
    };
    socket.on("data", onData);
  });
}

/** Every file under `dir` with its size, sorted (empty when it does not exist). */
function listTree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => `${f}:${fs.statSync(path.join(dir, f)).size}`).sort();
}

async function waitForUpgrade(url: string): Promise<void> {
  for (;;) {
    const sock = await TestSocket.open(url).catch(() => undefined);
    if (sock) return void sock.ws.terminate();
    await new Promise((r) => setTimeout(r, 50));
  }
}
