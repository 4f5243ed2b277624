import { createHash, generateKeyPairSync, sign } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AuthRateLimiter } from "../../../src/gateway/auth/rate-limiter.js";
import { buildDeviceAuthPayload } from "../../../src/gateway/auth/device-auth.js";
import { DeviceRegistry } from "../../../src/gateway/auth/device-registry.js";
import { evaluateConnect } from "../../../src/gateway/handshake.js";

const client = { id: "openclaw-ios", version: "1", platform: "ios", mode: "ui" };

/** Connect params of a device that signs `token` (what it sends in auth.token). */
function deviceParams(token: string, keys = generateKeyPairSync("ed25519")) {
  const { publicKey, privateKey } = keys;
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const id = createHash("sha256").update(raw).digest("hex");
  const signedAt = Date.now();
  const payload = buildDeviceAuthPayload("v3", {
    deviceId: id,
    clientId: client.id,
    clientMode: client.mode,
    role: "operator",
    scopes: [],
    token,
    nonce: "n",
    platform: "ios",
    signedAt,
  });
  return {
    minProtocol: 4,
    maxProtocol: 4,
    client,
    role: "operator",
    scopes: [],
    auth: { token },
    device: { id, publicKey: raw.toString("base64url"), signature: sign(null, Buffer.from(payload), privateKey).toString("base64url"), signedAt, nonce: "n" },
  };
}

describe("evaluateConnect with device pairing", () => {
  it("a key proof does not let anyone guess the shared token past the lockout", () => {
    const rateLimiter = new AuthRateLimiter({ maxAttempts: 2, windowMs: 60_000, lockoutMs: 60_000, exemptLoopback: true });
    const devices = new DeviceRegistry(fs.mkdtempSync(path.join(os.tmpdir(), "hs-devices-")));
    const attempt = (token: string) =>
      evaluateConnect({
        params: deviceParams(token),
        nonce: "n",
        remoteAddress: "10.9.8.7",
        auth: { mode: "token", token: "the-real-token" },
        rateLimiter,
        now: Date.now(),
        devices,
      });
    const first = attempt("guess-1");
    expect(!first.ok && first.error.details?.code).toBe("PAIRING_REQUIRED");
    attempt("guess-2");
    const locked = attempt("the-real-token");
    expect(!locked.ok && locked.error.details?.code).toBe("AUTH_RATE_LIMITED");
  });

  it("through a trusted proxy, a new device waits for approval; approved, it gets its grant and the user's identity scopes", () => {
    const devices = new DeviceRegistry(fs.mkdtempSync(path.join(os.tmpdir(), "hs-devices-")));
    const keys = generateKeyPairSync("ed25519");
    const policy = { userHeader: "x-forwarded-user", requiredHeaders: [], allowUsers: [], allowLoopback: false, identityScopes: { "ops@example.com": ["operator.read"] } };
    const attempt = (params: Record<string, unknown>) =>
      evaluateConnect({
        params,
        nonce: "n",
        remoteAddress: "198.51.100.7",
        auth: { mode: "trusted-proxy", trustedProxy: policy },
        rateLimiter: new AuthRateLimiter({ maxAttempts: 5, windowMs: 60_000, lockoutMs: 60_000, exemptLoopback: false }),
        now: Date.now(),
        devices,
        proxy: { identity: { user: "ops@example.com" }, localDirect: false, capScopes: (scopes) => [...scopes] },
      });
    const { auth: _auth, ...first } = deviceParams("", keys);
    const pending = attempt(first);
    expect(!pending.ok && pending.error.details?.code).toBe("PAIRING_REQUIRED");
    devices.approve(String(!pending.ok && pending.error.details?.requestId));
    const approved = attempt(first);
    expect(approved).toMatchObject({ ok: true, authVia: "trusted-proxy", proxyUser: "ops@example.com", scopes: ["operator.read"], deviceToken: { token: expect.any(String) } });
  });
});
