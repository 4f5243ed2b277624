import fs from "node:fs";
import path from "node:path";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { TestSocket, connectParams, openOperator } from "../helpers/ws-client.js";

let gw: GatewayProcess;
beforeAll(async () => {
  // Loopback is exempt from auth backoff by default; this gateway turns that off to test it.
  gw = await startGateway({
    configFile: {
      name: "openclaw.yaml",
      content: "gateway:\n  auth:\n    rateLimit:\n      maxAttempts: 3\n      windowMs: 60000\n      lockoutMs: 60000\n      exemptLoopback: false\n",
    },
  });
});
afterAll(async () => {
  await gw?.stop();
});

async function connectExpectingRejection(params: Record<string, unknown>) {
  const sock = await TestSocket.open(gw.url);
  const res = await sock.connect(params);
  const closed = await sock.closed;
  return { res, closed };
}

describe("shared-secret auth", () => {
  it("missing token: error response, then close 1008 with the reason", async () => {
    const { res, closed } = await connectExpectingRejection(connectParams(undefined));
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect(res.error.message).toMatch(/^unauthorized: gateway token missing/);
    expect(res.error.details.code).toBe("AUTH_TOKEN_MISSING");
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/^unauthorized: gateway token missing/);
  });

  it("wrong token: error response, close 1008, and the secret is never echoed or logged", async () => {
    const { res, closed } = await connectExpectingRejection(connectParams("wrong-token-value-123"));
    expect(res.error.message).toMatch(/^unauthorized: gateway token mismatch/);
    expect(res.error.details).toMatchObject({ code: "AUTH_TOKEN_MISMATCH", recommendedNextStep: "update_auth_credentials" });
    expect(closed.code).toBe(1008);
    expect(JSON.stringify(res)).not.toContain("wrong-token-value-123");
    expect(JSON.stringify(res)).not.toContain(gw.token);
    const log = fs.readFileSync(path.join(gw.stateDir, "logs", "gateway.log"), "utf8");
    expect(log).toContain("connect rejected");
    expect(log).not.toContain(gw.token);
    expect(log).not.toContain("wrong-token-value-123");
    expect(gw.output()).not.toContain(gw.token);
  });

  it("locks an address out after repeated wrong credentials, and the right token then waits too", async () => {
    // One failure was recorded by the previous test; two more reach maxAttempts (3).
    for (let i = 0; i < 2; i++) await connectExpectingRejection(connectParams("still-wrong"));
    const { res, closed } = await connectExpectingRejection(connectParams(gw.token));
    expect(res.error.message).toBe("unauthorized: too many failed authentication attempts (retry later)");
    expect(res.error).toMatchObject({ retryable: true, details: { code: "AUTH_RATE_LIMITED", recommendedNextStep: "wait_then_retry" } });
    expect(res.error.retryAfterMs).toBeGreaterThan(0);
    expect(closed.code).toBe(1008);
  });
});

describe("password auth", () => {
  let pw: GatewayProcess;
  beforeAll(async () => {
    pw = await startGateway({ token: null, env: { OPENCLAW_GATEWAY_PASSWORD: "correct horse" }, args: ["--auth", "password"] });
  });
  afterAll(async () => {
    await pw?.stop();
  });

  it("accepts the password and rejects a wrong one", async () => {
    const ok = await openOperator(pw.url, undefined, { auth: { password: "correct horse" } });
    expect(ok.hello.snapshot.authMode).toBe("password");
    ok.sock.close();
    const sock = await TestSocket.open(pw.url);
    const res = await sock.connect(connectParams(undefined, { auth: { password: "nope" } }));
    expect(res.error.message).toMatch(/^unauthorized: gateway password mismatch/);
    expect((await sock.closed).code).toBe(1008);
  });
});

describe("password from the environment alone", () => {
  it("means password mode, with no token generated", async () => {
    const pw = await startGateway({ token: null, env: { OPENCLAW_GATEWAY_PASSWORD: "from-env" } });
    try {
      const ok = await openOperator(pw.url, undefined, { auth: { password: "from-env" } });
      expect(ok.hello.snapshot.authMode).toBe("password");
      ok.sock.close();
      expect(fs.existsSync(path.join(pw.stateDir, "credentials", "gateway.token"))).toBe(false);
    } finally {
      await pw.stop();
    }
  });
});

describe("device identity", () => {
  let dev: GatewayProcess;
  beforeAll(async () => {
    dev = await startGateway();
  });
  afterAll(async () => {
    await dev?.stop();
  });

  function makeDevice() {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
    return { privateKey, publicKey: raw.toString("base64url"), id: createHash("sha256").update(raw).digest("hex") };
  }

  async function connectWithDevice(version: "v2" | "v3", tamper?: (p: any) => void) {
    const device = makeDevice();
    const sock = await TestSocket.open(dev.url);
    const { payload: challenge } = await sock.challenge();
    const client = { id: "openclaw-control-ui", version: "1.0", platform: "Linux", deviceFamily: "Desktop", mode: "ui" };
    const scopes = ["operator.read", "operator.write"];
    const signedAt = Date.now();
    const fields = [version, device.id, client.id, client.mode, "operator", scopes.join(","), String(signedAt), dev.token!, challenge.nonce];
    if (version === "v3") fields.push("linux", "desktop");
    const signature = sign(null, Buffer.from(fields.join("|")), device.privateKey).toString("base64url");
    const params: any = connectParams(dev.token, {
      client,
      scopes,
      device: { id: device.id, publicKey: device.publicKey, signature, signedAt, nonce: challenge.nonce },
    });
    tamper?.(params);
    const res = await sock.request("connect", params);
    return { sock, res, device };
  }

  it("accepts the token in the password field, as real OpenClaw does", async () => {
    const { sock, hello } = await openOperator(dev.url, undefined, { auth: { password: dev.token } });
    expect(hello.type).toBe("hello-ok");
    sock.close();
  });

  it("verifies a v3 signature over the challenge nonce and records the device in presence", async () => {
    const { sock, res, device } = await connectWithDevice("v3");
    expect(res.ok).toBe(true);
    const presence = await sock.request("system-presence", {});
    expect(presence.payload.some((p: any) => p.deviceId === device.id)).toBe(true);
    sock.close();
  });

  it("still accepts the legacy v2 signature", async () => {
    const { sock, res } = await connectWithDevice("v2");
    expect(res.ok).toBe(true);
    sock.close();
  });

  it("rejects a bad signature, a foreign nonce and a mismatched id with 1008", async () => {
    const cases: [(p: any) => void, string][] = [
      [(p) => (p.device.signature = Buffer.alloc(64, 7).toString("base64url")), "DEVICE_AUTH_SIGNATURE_INVALID"],
      [(p) => (p.device.nonce = "not-the-challenge"), "DEVICE_AUTH_NONCE_MISMATCH"],
      [(p) => (p.device.id = "0".repeat(64)), "DEVICE_AUTH_DEVICE_ID_MISMATCH"],
      [(p) => (p.device.signedAt = Date.now() - 10 * 60_000), "DEVICE_AUTH_SIGNATURE_EXPIRED"],
      [(p) => (p.device.publicKey = "abc"), "DEVICE_AUTH_PUBLIC_KEY_INVALID"],
    ];
    for (const [tamper, code] of cases) {
      const { sock, res } = await connectWithDevice("v3", tamper);
      expect(res.ok).toBe(false);
      expect(res.error.details.code).toBe(code);
      expect((await sock.closed).code).toBe(1008);
    }
  });
});
