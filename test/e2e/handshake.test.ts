import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { TestSocket, connectParams, openOperator } from "../helpers/ws-client.js";

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
});

describe("handshake", () => {
  it("sends connect.challenge on open", async () => {
    const sock = await TestSocket.open(gw.url);
    const challenge = await sock.challenge();
    expect(typeof challenge.payload.nonce).toBe("string");
    expect(challenge.payload.nonce.length).toBeGreaterThan(8);
    expect(Number.isInteger(challenge.payload.ts)).toBe(true);
    sock.close();
  });

  it("answers a real-OpenClaw-CLI-shaped connect with hello-ok, then health", async () => {
    const { sock, hello } = await openOperator(gw.url, gw.token, {
      scopes: ["operator.admin", "operator.read", "operator.write", "operator.approvals", "operator.pairing"],
    });
    expect(hello.type).toBe("hello-ok");
    expect(hello.protocol).toBe(4);
    expect(hello.server.version).toMatch(/\d+\.\d+\.\d+/);
    expect(typeof hello.server.connId).toBe("string");
    expect(hello.features.methods).toEqual(expect.arrayContaining(["health", "status", "system-presence"]));
    expect(hello.features.events).toEqual(expect.arrayContaining(["tick", "presence", "shutdown"]));
    expect(hello.snapshot).toMatchObject({
      presence: expect.any(Array),
      health: expect.objectContaining({ ok: true }),
      stateVersion: { presence: expect.any(Number), health: expect.any(Number) },
      uptimeMs: expect.any(Number),
      sessionDefaults: { defaultAgentId: "main", mainKey: "main", mainSessionKey: "agent:main:main", scope: "per-sender" },
      authMode: "token",
    });
    expect(hello.auth).toEqual({
      role: "operator",
      scopes: ["operator.admin", "operator.read", "operator.write", "operator.approvals", "operator.pairing"],
    });
    expect(hello.policy).toEqual({ maxPayload: 26214400, maxBufferedBytes: 52428800, tickIntervalMs: 30000 });

    const health = await sock.request("health", {});
    expect(health.ok).toBe(true);
    expect(health.payload.ok).toBe(true);
    expect(health.payload.agents[0]).toMatchObject({ agentId: "main", isDefault: true, sessions: { count: 0 } });
    expect(Number.isInteger(health.payload.durationMs)).toBe(true);
    sock.close();
  });

  it("hello-ok names the server as OpenClaw does, and shows paths and the auth mode to admins only", async () => {
    const admin = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] });
    expect(Object.keys(admin.hello.server)).toEqual(["version", "connId"]);
    expect(admin.hello.snapshot).toMatchObject({ stateDir: gw.stateDir, authMode: "token" });
    admin.sock.close();
    const reader = await openOperator(gw.url, gw.token, { scopes: ["operator.read"] });
    for (const key of ["configPath", "stateDir", "authMode"]) expect(reader.hello.snapshot).not.toHaveProperty(key);
    reader.sock.close();
  });

  it("negotiates protocol 3 for a v3 client", async () => {
    const { sock, hello } = await openOperator(gw.url, gw.token, { minProtocol: 3, maxProtocol: 3 });
    expect(hello.protocol).toBe(3);
    sock.close();
  });

  it("rejects a protocol range without 3 or 4 and closes 1008", async () => {
    const sock = await TestSocket.open(gw.url);
    const res = await sock.connect(connectParams(gw.token, { minProtocol: 5, maxProtocol: 6 }));
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect(res.error.details.code).toBe("PROTOCOL_MISMATCH");
    expect((await sock.closed).code).toBe(1008);
  });

  it("grants the default operator scopes when none are requested, and only known scopes", async () => {
    const a = await openOperator(gw.url, gw.token);
    expect(a.hello.auth.scopes).toContain("operator.admin");
    a.sock.close();
    const b = await openOperator(gw.url, gw.token, { scopes: ["operator.read", "made.up"] });
    expect(b.hello.auth.scopes).toEqual(["operator.read"]);
    b.sock.close();
  });

  it("enforces method scopes with the legacy message text", async () => {
    const { sock } = await openOperator(gw.url, gw.token, { scopes: [] });
    const res = await sock.request("health", {});
    expect(res.ok).toBe(false);
    expect(res.error).toEqual({
      code: "FORBIDDEN",
      message: "missing scope: operator.read",
      details: { code: "MISSING_SCOPE", missingScope: "operator.read", requiredScopes: ["operator.read"] },
    });
    sock.close();
  });

  it('accepts mode "operator" from the upstream docs\' example and upper-case client ids', async () => {
    const { sock, hello } = await openOperator(gw.url, gw.token, {
      client: { id: "CLI", version: "1", platform: "linux", mode: "operator" },
    });
    expect(hello.type).toBe("hello-ok");
    sock.close();
  });

  it("tracks presence for UI clients but not for CLI clients, and pushes presence events", async () => {
    const watcher = await openOperator(gw.url, gw.token);
    const ui = await openOperator(gw.url, gw.token, {
      client: { id: "openclaw-control-ui", version: "9.9", platform: "web", mode: "ui", instanceId: "tab-1" },
    });
    const event = await watcher.sock.waitFor((f) => f.type === "event" && f.event === "presence");
    expect(event.payload.presence.some((p: any) => p.instanceId === "tab-1" && p.mode === "ui")).toBe(true);
    expect(typeof event.seq).toBe("number");
    expect(event.stateVersion.presence).toBeGreaterThan(0);
    const list = await watcher.sock.request("system-presence", {});
    expect(list.payload.some((p: any) => p.instanceId === "tab-1")).toBe(true);
    expect(list.payload.some((p: any) => p.mode === "cli")).toBe(false);
    expect(list.payload.some((p: any) => p.mode === "gateway" && p.reason === "self")).toBe(true);
    ui.sock.close();
    await watcher.sock.waitFor((f) => f.event === "presence" && !f.payload.presence.some((p: any) => p.instanceId === "tab-1"));
    watcher.sock.close();
  });

  it("status reports version, pid and port", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const res = await sock.request("status", {});
    expect(res.payload).toMatchObject({ ok: true, port: gw.port, authMode: "token", pid: gw.proc.pid });
    expect(res.payload.stateDir).toBe(gw.stateDir);
    sock.close();
  });
});

describe("HTTP probes on the same port", () => {
  it("/health, /healthz, /readyz answer 200 once ready", async () => {
    for (const p of ["/health", "/healthz"]) {
      const res = await fetch(gw.httpUrl + p);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, status: "live" });
    }
    const ready = await fetch(`${gw.httpUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true, status: "ready" });
  });

  it("WebSocket upgrades on other paths are refused", async () => {
    await expect(TestSocket.open(`${gw.url}/not-here`)).rejects.toThrow(/404/);
  });
});
