import fs from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { connectParams, TestSocket } from "../helpers/ws-client.js";

/**
 * `gateway.auth.mode: "trusted-proxy"`: an identity-aware proxy on this host (allowLoopback)
 * names the user in `x-forwarded-user`. The test plays the proxy: it sends what the proxy would
 * (the forwarded chain, the identity headers) from loopback, the address a same-host proxy has.
 */

const PASSWORD = "same-host-password-0123456789";
const PROXIED = { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" };

function asProxy(user: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return { ...PROXIED, ...(user ? { "x-forwarded-user": user } : {}), ...extra };
}

/** A socket listening from its first frame (the challenge comes right after the upgrade). */
async function openWith(url: string, headers: Record<string, string>): Promise<TestSocket> {
  const ws = new WebSocket(url, { headers });
  const sock = new TestSocket(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return sock;
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function connectAs(gw: GatewayProcess, headers: Record<string, string>, params = connectParams(undefined)) {
  const sock = await openWith(gw.url, headers);
  const res = await sock.connect(params);
  return { sock, res };
}

function chat(gw: GatewayProcess, headers: Record<string, string>) {
  return fetch(`${gw.httpUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "openclaw", messages: [{ role: "user", content: "hi" }] }),
  });
}

const ALLOWED = ["admin@example.com", "reader@example.com", "nobody@example.com"];

describe("trusted-proxy auth", { timeout: 90_000 }, () => {
  let model: FakeModelServer;
  let gw: GatewayProcess;
  let stateDir: string;

  const configWith = (allowUsers: string[]) =>
    fakeModelConfig(model, stateDir, {
      gateway: {
        mode: "local",
        trustedProxies: ["127.0.0.1", "::1"],
        auth: {
          mode: "trusted-proxy",
          password: PASSWORD,
          trustedProxy: { userHeader: "x-forwarded-user", requiredHeaders: ["x-forwarded-proto"], allowUsers, allowLoopback: true },
          identityScopes: { "Admin@Example.com": ["operator.admin", "operator.read", "operator.write"], "reader@example.com": ["operator.read"] },
        },
        http: { endpoints: { chatCompletions: { enabled: true } } },
      },
    });

  beforeAll(async () => {
    model = await startFakeModelServer();
    stateDir = makeTempDir("openclaw-trusted-proxy-");
    gw = await startGateway({ stateDir, token: null, configFile: { name: "openclaw.json", content: configWith(ALLOWED) } });
  });

  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it("lets in the user the proxy names, with the scopes identityScopes grants that user", async () => {
    const admin = await connectAs(gw, asProxy("admin@example.com"));
    expect(admin.res.ok).toBe(true);
    expect([...admin.res.payload.auth.scopes].sort()).toEqual(["operator.admin", "operator.read", "operator.write"]);
    expect((await admin.sock.request("status")).ok).toBe(true);
    admin.sock.close();

    const reader = await connectAs(gw, asProxy("reader@example.com"));
    expect(reader.res.ok).toBe(true);
    expect(reader.res.payload.auth.scopes).toEqual(["operator.read"]);
    const write = await reader.sock.request("chat.send", { sessionKey: "main", message: "hi", idempotencyKey: "k1" });
    expect(write).toMatchObject({ ok: false, error: { message: expect.stringContaining("missing scope: operator.write") } });
    reader.sock.close();

    // Asking for more changes nothing: a connection without a device gets the grant only.
    const nobody = await connectAs(gw, asProxy("nobody@example.com"), connectParams(undefined, { scopes: ["operator.admin"] }));
    expect(nobody.res.ok).toBe(true);
    expect(nobody.res.payload.auth.scopes).toEqual([]);
    nobody.sock.close();

    // The proxy's x-openclaw-scopes caps the grant.
    const capped = await connectAs(gw, asProxy("admin@example.com", { "x-openclaw-scopes": "operator.read" }));
    expect(capped.res.payload.auth.scopes).toEqual(["operator.read"]);
    capped.sock.close();
  });

  it("refuses a missing identity, a missing required header and a user outside allowUsers, saying which", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [asProxy(undefined), "AUTH_UNAUTHORIZED", "named no user in x-forwarded-user"],
      [{ "x-forwarded-for": "203.0.113.9", "x-forwarded-user": "admin@example.com" }, "AUTH_IDENTITY_HEADER_REQUIRED", "required header x-forwarded-proto"],
      [asProxy("mallory@example.com"), "AUTH_UNAUTHORIZED", "not in gateway.auth.trustedProxy.allowUsers"],
    ];
    for (const [headers, code, message] of cases) {
      const { sock, res } = await connectAs(gw, headers);
      expect(res).toMatchObject({ ok: false, error: { message: expect.stringContaining(message), details: { code } } });
      sock.close();
    }
  });

  it("takes the password from a same-host client that bypasses the proxy, and never a token", async () => {
    const direct = await connectAs(gw, {}, connectParams(undefined, { auth: { password: PASSWORD } }));
    expect(direct.res.ok).toBe(true);
    direct.sock.close();

    const token = await connectAs(gw, {}, connectParams("any-token-at-all"));
    expect(token.res).toMatchObject({ ok: false, error: { message: expect.stringContaining("same-host clients that bypass the proxy use gateway.auth.password") } });
    token.sock.close();

    // The CLI on this host reads gateway.auth.password from the config.
    const health = await runCli(["gateway", "call", "health", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(health.output).toContain('"ok": true');
    expect(health.code).toBe(0);
  });

  it("authenticates /v1/chat/completions by the proxy's user; refuses x-openclaw-scopes there as not supported", async () => {
    const ok = await chat(gw, asProxy("reader@example.com"));
    expect(ok.status).toBe(200);
    expect((await ok.json()).choices[0].message.content).toBeTruthy();

    const anonymous = await chat(gw, asProxy(undefined));
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.message).toContain("named no user in x-forwarded-user");

    const scoped = await chat(gw, asProxy("admin@example.com", { "x-openclaw-scopes": "operator.read" }));
    expect(scoped.status).toBe(403);
    expect((await scoped.json()).error.message).toContain("x-openclaw-scopes is not supported");

    expect((await chat(gw, { authorization: `Bearer ${PASSWORD}` })).status).toBe(200);
    expect((await chat(gw, { authorization: "Bearer wrong" })).status).toBe(401);
  });

  it("a reload of the policy applies at once: the proxy's connections reconnect under it, a removed user is out", async () => {
    const reader = await connectAs(gw, asProxy("reader@example.com"));
    const admin = await connectAs(gw, asProxy("admin@example.com"));
    const local = await connectAs(gw, {}, connectParams(undefined, { auth: { password: PASSWORD } }));
    expect([reader.res.ok, admin.res.ok, local.res.ok]).toEqual([true, true, true]);

    // Upgraded before the reload, its connect sent after: checked under the new policy.
    const pending = await openWith(gw.url, asProxy("reader@example.com"));
    const applied = () => (gw.output().match(/trusted-proxy auth policy applied/g) ?? []).length;
    const before = applied();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configWith(["admin@example.com"]));
    await waitFor(() => applied() > before, "the policy reload");
    expect(await reader.sock.closed).toEqual({ code: 1012, reason: "trusted-proxy auth policy changed: reconnect" });
    expect((await admin.sock.closed).code).toBe(1012);
    // The password client did not come through the proxy: it stays.
    expect((await local.sock.request("health")).ok).toBe(true);
    local.sock.close();

    expect(await pending.connect(connectParams(undefined))).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining("not in gateway.auth.trustedProxy.allowUsers") },
    });
    pending.close();
    const again = await connectAs(gw, asProxy("reader@example.com"));
    expect(again.res).toMatchObject({ ok: false, error: { message: expect.stringContaining("not in gateway.auth.trustedProxy.allowUsers") } });
    again.sock.close();
    expect((await chat(gw, asProxy("reader@example.com"))).status).toBe(401);
    const back = await connectAs(gw, asProxy("admin@example.com"));
    expect(back.res.ok).toBe(true);
    back.sock.close();

    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configWith(ALLOWED));
    await waitFor(() => applied() > before + 1, "the second policy reload");
  });

  it("refuses loopback sources without allowLoopback, and a start with a shared token", async () => {
    const dir = makeTempDir("openclaw-trusted-proxy-strict-");
    const base = {
      trustedProxies: ["127.0.0.1"],
      auth: { mode: "trusted-proxy", trustedProxy: { userHeader: "x-forwarded-user" } },
    };
    const strict = await startGateway({ stateDir: dir, token: null, configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: base }) } });
    try {
      const { sock, res } = await connectAs(strict, asProxy("admin@example.com"));
      expect(res).toMatchObject({ ok: false, error: { message: expect.stringContaining("refuses loopback sources unless gateway.auth.trustedProxy.allowLoopback is true") } });
      sock.close();
    } finally {
      await strict.stop();
    }

    const refused = await runCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: dir, OPENCLAW_GATEWAY_TOKEN: "a-shared-token-0123456789abcdef" });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("trusted-proxy and token auth are mutually exclusive");
  });
});
