import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../infra/atomic-file.js";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX_LENGTH = 12;

export interface GatewayIdentity {
  /** SHA-256 of the raw public key, hex (how devices are named in the protocol). */
  deviceId: string;
  /** The raw Ed25519 public key, base64url. */
  publicKey: string;
}

/**
 * The gateway's own Ed25519 device identity (`gateway.identity.get`), created on first use and
 * kept in `<state>/identity/gateway-device.pem` (mode 0600). Only the public half ever leaves it.
 */
export function loadOrCreateGatewayIdentity(stateDir: string): GatewayIdentity {
  const file = path.join(stateDir, "identity", "gateway-device.pem");
  let pem: string;
  try {
    pem = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`cannot read the gateway identity ${file}: ${(err as Error).message}`);
    pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, pem, 0o600);
  }
  let raw: Buffer;
  try {
    raw = createPublicKey(createPrivateKey(pem)).export({ type: "spki", format: "der" }).subarray(ED25519_SPKI_PREFIX_LENGTH);
  } catch (err) {
    throw new Error(`the gateway identity ${file} is not an Ed25519 private key (${(err as Error).message}); move it away to create a new one`);
  }
  return { deviceId: createHash("sha256").update(raw).digest("hex"), publicKey: raw.toString("base64url") };
}
