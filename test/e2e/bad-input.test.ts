import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { TestSocket, connectParams, openOperator } from "../helpers/ws-client.js";

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway({ env: { OPENCLAW_HANDSHAKE_TIMEOUT_MS: "400" } });
});
afterAll(async () => {
  await gw?.stop();
});

describe("before hello", () => {
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
