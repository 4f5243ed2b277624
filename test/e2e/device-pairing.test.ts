import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, TestSocket, type Frame } from "../helpers/ws-client.js";

interface Device {
  id: string;
  publicKey: string;
  privateKey: KeyObject;
}

function makeDevice(): Device {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { privateKey, publicKey: raw.toString("base64url"), id: createHash("sha256").update(raw).digest("hex") };
}

/** A connect as a phone app would send it: the device's key proof, and `auth` as given (no shared secret). */
async function connectDevice(url: string, device: Device, opts: { auth?: Frame; scopes?: string[] } = {}) {
  const sock = await TestSocket.open(url);
  const { payload: challenge } = await sock.challenge();
  const client = { id: "openclaw-ios", version: "1.0", platform: "iOS", deviceFamily: "iPhone", mode: "ui", displayName: "Ada's phone" };
  const scopes = opts.scopes ?? ["operator.read", "operator.write"];
  const signedAt = Date.now();
  const fields = ["v3", device.id, client.id, client.mode, "operator", scopes.join(","), String(signedAt), opts.auth?.token ?? "", challenge.nonce, "ios", "iphone"];
  const signature = sign(null, Buffer.from(fields.join("|")), device.privateKey).toString("base64url");
  const res = await sock.request("connect", {
    minProtocol: 3,
    maxProtocol: 4,
    client,
    role: "operator",
    scopes,
    ...(opts.auth ? { auth: opts.auth } : {}),
    device: { id: device.id, publicKey: device.publicKey, signature, signedAt, nonce: challenge.nonce },
  });
  return { sock, res };
}

let gw: GatewayProcess;
let operator: TestSocket;
const cli = (...args: string[]) => runCli(["devices", ...args], { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token });

beforeAll(async () => {
  gw = await startGateway();
  operator = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  operator?.close();
  await gw?.stop();
});

describe("device pairing", () => {
  it("a new device is asked to pair; once approved it gets a token on the next connect, which then works on its own", async () => {
    const phone = makeDevice();
    const first = await connectDevice(gw.url, phone);
    expect(first.res.ok).toBe(false);
    expect(first.res.error).toMatchObject({ code: "NOT_PAIRED", details: { code: "PAIRING_REQUIRED", reason: "not-paired", deviceId: phone.id } });
    const requestId = first.res.error.details.requestId as string;
    expect((await first.sock.closed).reason).toContain(`requestId: ${requestId}`);
    const event = await operator.waitFor((f) => f.type === "event" && f.event === "device.pair.requested" && f.payload.requestId === requestId);
    expect(event.payload).toMatchObject({ deviceId: phone.id, displayName: "Ada's phone", scopes: ["operator.read", "operator.write"] });

    const listed = await cli("list", "--json");
    const report = JSON.parse(listed.output);
    expect(report.pending.map((p: { requestId: string }) => p.requestId)).toContain(requestId);

    const approved = await cli("approve", requestId);
    expect(approved.code).toBe(0);
    expect(approved.output).toContain("receives its token when it reconnects");
    await operator.waitFor((f) => f.type === "event" && f.event === "device.pair.resolved" && f.payload.requestId === requestId && f.payload.decision === "approved");

    const second = await connectDevice(gw.url, phone);
    expect(second.res.ok).toBe(true);
    const deviceToken = second.res.payload.auth.deviceToken as string;
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(second.res.payload.auth).toMatchObject({ role: "operator", scopes: ["operator.read", "operator.write"], issuedAtMs: expect.any(Number) });
    second.sock.close();

    const third = await connectDevice(gw.url, phone, { auth: { token: deviceToken } });
    expect(third.res.ok).toBe(true);
    expect(third.res.payload.auth.deviceToken).toBeUndefined();
    expect((await third.sock.request("health", {})).ok).toBe(true);
    const denied = await third.sock.request("config.set", { raw: "{}" });
    expect(denied.error.details.missingScope).toBe("operator.admin");
    third.sock.close();

    // The token is bound to the device's key: another device presenting it is not let in.
    const thief = await connectDevice(gw.url, makeDevice(), { auth: { token: deviceToken } });
    expect(thief.res.ok).toBe(false);
    expect(thief.res.error.details.code).toBe("PAIRING_REQUIRED");
    // A wrong token for the paired device is refused as a mismatch.
    const wrong = await connectDevice(gw.url, phone, { auth: { token: "x".repeat(43) } });
    expect(wrong.res.error.details.code).toBe("AUTH_DEVICE_TOKEN_MISMATCH");
    // The token file holds only its hash.
    const stored = fs.readFileSync(path.join(gw.stateDir, "devices.json"), "utf8");
    expect(stored).not.toContain(deviceToken);
    expect(fs.statSync(path.join(gw.stateDir, "devices.json")).mode & 0o777).toBe(0o600);

    // More scopes than approved: a new request (scope upgrade), not a silent grant.
    const greedy = await connectDevice(gw.url, phone, { auth: { token: deviceToken }, scopes: ["operator.admin"] });
    expect(greedy.res.error.details).toMatchObject({ code: "PAIRING_REQUIRED", reason: "scope-upgrade", approvedScopes: ["operator.read", "operator.write"] });

    // Revoked: the live socket closes and the token stops working.
    const live = await connectDevice(gw.url, phone, { auth: { token: deviceToken } });
    expect(live.res.ok).toBe(true);
    const revoked = await cli("revoke", phone.id);
    expect(revoked.code).toBe(0);
    expect((await live.sock.closed).reason).toBe("device token revoked");
    const after = await connectDevice(gw.url, phone, { auth: { token: deviceToken } });
    expect(after.res.error.details).toMatchObject({ code: "PAIRING_REQUIRED", reason: "not-paired" });
  });

  it("a rejected request lets nothing in", async () => {
    const tablet = makeDevice();
    const first = await connectDevice(gw.url, tablet);
    const requestId = first.res.error.details.requestId as string;
    const rejected = await cli("reject", requestId);
    expect(rejected.code).toBe(0);
    const again = await connectDevice(gw.url, tablet);
    expect(again.res.ok).toBe(false);
    expect(again.res.error.details.requestId).not.toBe(requestId);
    const unknown = await cli("approve", requestId);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("unknown or expired pairing request");
  });

  it("approve --latest takes the newest request", async () => {
    const laptop = makeDevice();
    const first = await connectDevice(gw.url, laptop, { scopes: ["operator.read"] });
    const requestId = first.res.error.details.requestId as string;
    expect((await cli("approve", "--latest", "--json")).code).toBe(0);
    const listed = JSON.parse((await cli("list", "--json")).output);
    expect(listed.pending.map((p: { requestId: string }) => p.requestId)).not.toContain(requestId);
    expect(listed.paired.find((d: { deviceId: string }) => d.deviceId === laptop.id)).toMatchObject({ scopes: ["operator.read"], hasToken: false });
  });

  it("a device whose client holds the shared token is paired at once and given its token", async () => {
    const desktop = makeDevice();
    const sock = await TestSocket.open(gw.url);
    const { payload: challenge } = await sock.challenge();
    const client = { id: "openclaw-control-ui", version: "1.0", platform: "Linux", mode: "ui" };
    const scopes = ["operator.read"];
    const signedAt = Date.now();
    const fields = ["v3", desktop.id, client.id, client.mode, "operator", scopes.join(","), String(signedAt), gw.token!, challenge.nonce, "linux", ""];
    const signature = sign(null, Buffer.from(fields.join("|")), desktop.privateKey).toString("base64url");
    const res = await sock.request("connect", {
      minProtocol: 4,
      maxProtocol: 4,
      client,
      role: "operator",
      scopes,
      auth: { token: gw.token },
      device: { id: desktop.id, publicKey: desktop.publicKey, signature, signedAt, nonce: challenge.nonce },
    });
    expect(res.ok).toBe(true);
    const token = res.payload.auth.deviceToken as string;
    expect(token).toBeTruthy();
    sock.close();
    const later = await connectDevice(gw.url, desktop, { auth: { token }, scopes: ["operator.read"] });
    expect(later.res.ok).toBe(true);
    later.sock.close();
  });

  it("pairings survive a gateway restart", async () => {
    const restarting = await startGateway();
    const watch = makeDevice();
    let token: string;
    try {
      const first = await connectDevice(restarting.url, watch, { scopes: ["operator.read"] });
      const { sock } = await openOperator(restarting.url, restarting.token);
      expect((await sock.request("device.pair.approve", { requestId: first.res.error.details.requestId })).ok).toBe(true);
      sock.close();
      const second = await connectDevice(restarting.url, watch, { scopes: ["operator.read"] });
      token = second.res.payload.auth.deviceToken;
      second.sock.close();
    } finally {
      await restarting.stop();
    }
    const again = await startGateway({ stateDir: restarting.stateDir, token: restarting.token! });
    try {
      const res = await connectDevice(again.url, watch, { auth: { token }, scopes: ["operator.read"] });
      expect(res.res.ok).toBe(true);
      res.sock.close();
    } finally {
      await again.stop();
    }
  });
});
