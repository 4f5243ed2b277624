import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compare secrets in constant time. Hashing first gives equal-length inputs, so neither the
 * content nor the length of the configured secret leaks through timing.
 */
export function secretsEqual(provided: string, expected: string): boolean {
  const a = createHash("sha256").update(provided, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}
