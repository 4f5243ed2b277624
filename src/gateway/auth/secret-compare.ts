import { hash, timingSafeEqual } from "node:crypto";

/**
 * Compare secrets in constant time. Hashing first gives equal-length inputs, so neither the
 * content nor the length of the configured secret leaks through timing. The configured secret's
 * digest is kept (it is compared on every authenticated request); the provided one is hashed
 * each time.
 */
export function secretsEqual(provided: string, expected: string): boolean {
  const a = hash("sha256", provided, "buffer");
  return timingSafeEqual(a, expectedDigest(expected));
}

let lastExpected: { secret: string; digest: Buffer } | undefined;

function expectedDigest(secret: string): Buffer {
  if (lastExpected?.secret !== secret) lastExpected = { secret, digest: hash("sha256", secret, "buffer") };
  return lastExpected.digest;
}
