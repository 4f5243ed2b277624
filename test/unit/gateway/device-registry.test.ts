import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DeviceRegistry, MAX_PENDING_PAIRINGS, PAIRING_REQUEST_TTL_MS, type DeviceDescriptor } from "../../../src/gateway/auth/device-registry.js";

const stateDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "devices-"));
const descriptor = (deviceId: string, scopes = ["operator.read"]): DeviceDescriptor => ({
  deviceId,
  publicKey: `key-${deviceId}`,
  clientId: "openclaw-ios",
  clientMode: "ui",
  platform: "ios",
  role: "operator",
  scopes,
  remoteAddress: "10.0.0.2",
});

describe("DeviceRegistry", () => {
  it("a request expires after its time and can no longer be approved", () => {
    let now = 1_000;
    const registry = new DeviceRegistry(stateDir(), {}, () => now);
    const request = registry.requestPairing(descriptor("a"), "not-paired")!;
    now += PAIRING_REQUEST_TTL_MS;
    expect(registry.list().pending).toEqual([]);
    expect(registry.approve(request.requestId)).toBeUndefined();
  });

  it("the same ask keeps its request; other scopes replace it with a new id", () => {
    const registry = new DeviceRegistry(stateDir());
    const first = registry.requestPairing(descriptor("a"), "not-paired")!;
    expect(registry.requestPairing(descriptor("a"), "not-paired")!.requestId).toBe(first.requestId);
    const wider = registry.requestPairing(descriptor("a", ["operator.read", "operator.write"]), "not-paired")!;
    expect(wider.requestId).not.toBe(first.requestId);
    expect(registry.list().pending.map((p) => p.requestId)).toEqual([wider.requestId]);
  });

  it("refuses requests beyond the cap", () => {
    const registry = new DeviceRegistry(stateDir());
    for (let i = 0; i < MAX_PENDING_PAIRINGS; i++) expect(registry.requestPairing(descriptor(`d${i}`), "not-paired")).toBeDefined();
    expect(registry.requestPairing(descriptor("one-too-many"), "not-paired")).toBeUndefined();
  });

  it("stores only the token's hash, checks it, and forgets it on revoke", () => {
    const dir = stateDir();
    const revoked: string[] = [];
    const registry = new DeviceRegistry(dir, { onRevoked: (id) => revoked.push(id) });
    registry.approve(registry.requestPairing(descriptor("a"), "not-paired")!.requestId);
    const { token } = registry.issueToken("a");
    expect(fs.readFileSync(path.join(dir, "devices.json"), "utf8")).not.toContain(token);
    const reloaded = new DeviceRegistry(dir);
    expect(reloaded.tokenMatches("a", token)).toBe(true);
    expect(reloaded.tokenMatches("a", `${token}x`)).toBe(false);
    expect(registry.revoke("a")).toBe(true);
    expect(revoked).toEqual(["a"]);
    expect(new DeviceRegistry(dir).get("a")).toBeUndefined();
  });

  it("an approved scope upgrade keeps the token the device holds", () => {
    const registry = new DeviceRegistry(stateDir());
    registry.approve(registry.requestPairing(descriptor("a"), "not-paired")!.requestId);
    const { token } = registry.issueToken("a");
    registry.approve(registry.requestPairing(descriptor("a", ["operator.read", "operator.admin"]), "scope-upgrade")!.requestId);
    expect(registry.get("a")!.scopes).toEqual(["operator.read", "operator.admin"]);
    expect(registry.tokenMatches("a", token)).toBe(true);
  });

  it("a damaged file is set aside instead of keeping the gateway down", () => {
    const dir = stateDir();
    fs.writeFileSync(path.join(dir, "devices.json"), "{not json");
    expect(new DeviceRegistry(dir).list()).toEqual({ pending: [], paired: [] });
    expect(fs.readdirSync(dir).some((name) => name.startsWith("devices.json.corrupt-"))).toBe(true);
  });
});
