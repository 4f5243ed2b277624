import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import type { DeviceProof } from "../protocol/frames.js";
import { DEVICE_SIGNATURE_SKEW_MS } from "../protocol/constants.js";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export interface DeviceSignatureContext {
  nonce: string;
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  token: string;
  platform?: string;
  deviceFamily?: string;
  now: number;
}

export type DeviceCheck = { ok: true; deviceId: string; version: "v2" | "v3" } | { ok: false; detailsCode: string; reason: string; message: string };

/**
 * Verify a device's Ed25519 proof (see docs/protocol.md, "Device identity"): the id is the SHA-256
 * of the raw public key, the nonce is the one we issued, the signature is fresh and covers the v3
 * (or legacy v2) payload.
 */
export function verifyDeviceProof(device: DeviceProof, ctx: DeviceSignatureContext): DeviceCheck {
  const rawKey = decodePublicKey(device.publicKey);
  if (!rawKey) return fail("DEVICE_AUTH_PUBLIC_KEY_INVALID", "device-public-key", "device public key invalid");
  const expectedId = createHash("sha256").update(rawKey).digest("hex");
  if (device.id.toLowerCase() !== expectedId) {
    return fail("DEVICE_AUTH_DEVICE_ID_MISMATCH", "device-id-mismatch", "device id mismatch");
  }
  if (device.nonce !== ctx.nonce) {
    return fail("DEVICE_AUTH_NONCE_MISMATCH", "device-nonce-mismatch", "device nonce mismatch");
  }
  if (Math.abs(ctx.now - device.signedAt) > DEVICE_SIGNATURE_SKEW_MS) {
    return fail("DEVICE_AUTH_SIGNATURE_EXPIRED", "device-signature-stale", "device signature expired");
  }
  const key = toKeyObject(rawKey);
  const signature = decodeBase64Url(device.signature);
  if (!key || !signature) return fail("DEVICE_AUTH_SIGNATURE_INVALID", "device-signature", "device signature invalid");
  for (const version of ["v3", "v2"] as const) {
    const payload = buildDeviceAuthPayload(version, { ...ctx, deviceId: expectedId, signedAt: device.signedAt });
    if (verify(null, Buffer.from(payload, "utf8"), key, signature)) return { ok: true, deviceId: expectedId, version };
  }
  return fail("DEVICE_AUTH_SIGNATURE_INVALID", "device-signature", "device signature invalid");
}

/** The `|`-joined string a device signs. Exported so tests and clients build it the same way. */
export function buildDeviceAuthPayload(version: "v2" | "v3", p: Omit<DeviceSignatureContext, "now"> & { deviceId: string; signedAt: number }): string {
  const base = [version, p.deviceId, p.clientId, p.clientMode, p.role, p.scopes.join(","), String(p.signedAt), p.token, p.nonce];
  if (version === "v2") return base.join("|");
  return [...base, asciiLower(p.platform), asciiLower(p.deviceFamily)].join("|");
}

function asciiLower(value: string | undefined): string {
  return (value ?? "").trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function decodePublicKey(value: string): Buffer | undefined {
  if (value.includes("BEGIN PUBLIC KEY")) {
    try {
      const der = createPublicKey(value).export({ format: "der", type: "spki" });
      return der.subarray(der.length - 32);
    } catch {
      return undefined;
    }
  }
  const raw = decodeBase64Url(value);
  return raw && raw.length === 32 ? raw : undefined;
}

function toKeyObject(raw: Buffer): KeyObject | undefined {
  try {
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: "der", type: "spki" });
  } catch {
    return undefined;
  }
}

function decodeBase64Url(value: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return undefined;
  return Buffer.from(value, "base64url");
}

function fail(detailsCode: string, reason: string, message: string): DeviceCheck {
  return { ok: false, detailsCode, reason, message };
}
