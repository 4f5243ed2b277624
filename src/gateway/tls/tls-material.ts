import { createPrivateKey, X509Certificate } from "node:crypto";
import fs from "node:fs";
import tls from "node:tls";
import { certificateFingerprint } from "../../infra/tls/tls-fingerprint.js";
import { readTlsFile, type GatewayTlsFiles } from "./gateway-tls-files.js";

/** What the listener serves: the PEM bytes for `tls.createServer`/`setSecureContext`, and what identifies them. */
export interface TlsMaterial {
  options: { cert: Buffer; key: Buffer; ca?: Buffer; minVersion: tls.SecureVersion };
  /** SHA-256 fingerprint of the certificate, lowercase hex. */
  fingerprint: string;
  /** The certificate's notAfter, ISO 8601. */
  validTo: string;
}

/** TLS 1.3 only, as OpenClaw's gateway serves it. */
export const GATEWAY_TLS_MIN_VERSION: tls.SecureVersion = "TLSv1.3";

/**
 * Reads and checks the certificate, key and CA bundle at `files`: each must be a readable PEM file,
 * the key must be the certificate's, and together they must make a TLS context. Throws an error
 * naming the file at fault and the fix; never generates anything.
 */
export function loadTlsMaterial(files: GatewayTlsFiles): TlsMaterial {
  const cert = readOrExplain(files.certPath, "gateway.tls certificate", "certPath");
  const key = readOrExplain(files.keyPath, "gateway.tls key", "keyPath");
  const ca = files.caPath ? readOrExplain(files.caPath, "gateway.tls CA bundle", "caPath") : undefined;
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new Error(`gateway.tls certificate ${files.certPath} is not a PEM certificate (${(err as Error).message}): fix gateway.tls.certPath or the file`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new Error(`gateway.tls key ${files.keyPath} is not an unencrypted PEM private key (${(err as Error).message}): fix gateway.tls.keyPath or the file`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new Error(`gateway.tls key ${files.keyPath} is not the key of certificate ${files.certPath}: point certPath and keyPath at one pair`);
  }
  const options = { cert, key, ...(ca ? { ca } : {}), minVersion: GATEWAY_TLS_MIN_VERSION };
  try {
    tls.createSecureContext(options);
  } catch (err) {
    const where = ca ? `${files.certPath}, ${files.keyPath} and ${files.caPath}` : `${files.certPath} and ${files.keyPath}`;
    throw new Error(`gateway.tls: ${where} do not make a TLS context (${(err as Error).message})`);
  }
  return { options, fingerprint: certificateFingerprint(cert), validTo: new Date(x509.validTo).toISOString() };
}

/** Which of the pair exists now: generation happens only when neither does. */
export function tlsPairPresence(files: GatewayTlsFiles): { cert: boolean; key: boolean } {
  return { cert: fs.existsSync(files.certPath), key: fs.existsSync(files.keyPath) };
}

function readOrExplain(file: string, what: string, key: string): Buffer {
  try {
    return readTlsFile(file, what);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new Error(`${what} ${file} does not exist: create it, or fix gateway.tls.${key}`);
    if (code === "EACCES") throw new Error(`${what} ${file} cannot be read by this user: fix its permissions`);
    throw new Error(`${(err as Error).message}: fix gateway.tls.${key}`);
  }
}
