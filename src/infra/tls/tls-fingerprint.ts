import { X509Certificate } from "node:crypto";

const HEX_FINGERPRINT = /^[0-9a-f]{64}$/i;
const COLON_FINGERPRINT = /^[0-9a-f]{2}(?::[0-9a-f]{2}){31}$/i;

/**
 * A SHA-256 certificate fingerprint as lowercase hex without separators, from the forms people
 * copy: 64 hex digits, or 32 colon-separated pairs (what `openssl x509 -fingerprint -sha256`
 * prints), either optionally prefixed `sha256:`. Undefined when `value` is none of these.
 */
export function normalizeTlsFingerprint(value: string | undefined): string | undefined {
  const bare = (value ?? "").trim().replace(/^sha256:/i, "");
  if (HEX_FINGERPRINT.test(bare)) return bare.toLowerCase();
  if (COLON_FINGERPRINT.test(bare)) return bare.replaceAll(":", "").toLowerCase();
  return undefined;
}

/** The fingerprint the way `openssl x509 -fingerprint -sha256` prints it: uppercase pairs joined by colons. */
export function displayTlsFingerprint(hex: string): string {
  return hex.toUpperCase().replace(/(..)(?!$)/g, "$1:");
}

/** The SHA-256 fingerprint (normalized) of the first certificate in `pem`. Throws when it is not a certificate. */
export function certificateFingerprint(pem: string | Buffer): string {
  return normalizeTlsFingerprint(new X509Certificate(pem).fingerprint256)!;
}
