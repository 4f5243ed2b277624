import type { ResolvedAuth } from "../../auth/resolve-auth.js";
import type { AuthRateLimiter } from "../../auth/rate-limiter.js";
import { secretsEqual } from "../../auth/secret-compare.js";

export type BearerOutcome = { ok: true } | { ok: false; status: 401 } | { ok: false; status: 429; retryAfterSeconds: number };

/**
 * Shared-secret bearer check for the HTTP APIs (see docs/http-api.md, "Authentication"). A
 * locked-out address is refused before its credential is even looked at, like the WebSocket
 * handshake; only a wrong credential counts toward the lockout, a missing one does not.
 */
export function checkBearer(authorization: string | undefined, auth: ResolvedAuth, rateLimiter: AuthRateLimiter, address: string): BearerOutcome {
  if (auth.mode === "none") return { ok: true };
  const retryAfterMs = rateLimiter.retryAfterMs(address);
  if (retryAfterMs > 0) return { ok: false, status: 429, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };

  const provided = bearerValue(authorization);
  if (!provided) return { ok: false, status: 401 };
  const expected = auth.mode === "token" ? auth.token : auth.password;
  if (!expected || !secretsEqual(provided, expected)) {
    rateLimiter.recordFailure(address);
    return { ok: false, status: 401 };
  }
  rateLimiter.recordSuccess(address);
  return { ok: true };
}

function bearerValue(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S.*)$/i.exec(header?.trim() ?? "");
  return match?.[1]?.trim() || undefined;
}
