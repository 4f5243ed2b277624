import type { IncomingHttpHeaders } from "node:http";
import type { ResolvedAuth } from "../../auth/resolve-auth.js";
import type { AuthRateLimiter } from "../../auth/rate-limiter.js";
import { secretsEqual } from "../../auth/secret-compare.js";
import { proxyIdentityRefusal, readProxyIdentity } from "../../auth/trusted-proxy.js";
import type { Ingress, ProxySettings } from "../../ingress-attribution.js";

export type BearerOutcome =
  | { ok: true }
  | { ok: false; status: 401; message?: string }
  | { ok: false; status: 403; message: string }
  | { ok: false; status: 429; retryAfterSeconds: number };

/** The parts of an HTTP request its authentication reads. */
export interface HttpAuthRequest {
  socketAddress: string | undefined;
  headers: IncomingHttpHeaders;
  /** Who the request comes from; never `unattributable-proxy` (refused before auth). */
  ingress: Ingress & { clientIp: string };
}

const SCOPES_NOT_SUPPORTED =
  "x-openclaw-scopes is not supported on this gateway's HTTP APIs: a request the proxy vouches for acts with full operator authority; remove the header at the proxy for these routes, or use the WebSocket protocol, where it caps the connection";

/**
 * Auth for the HTTP APIs (see docs/http-api.md, "Authentication"): the shared secret as a bearer
 * token, or in `trusted-proxy` mode the user the proxy names (a same-host caller bypassing the
 * proxy may send `gateway.auth.password` instead). A locked-out address is refused before its
 * credential is even looked at, like the WebSocket handshake; only a wrong secret counts toward
 * the lockout, a missing one does not.
 */
export function checkHttpAuth(request: HttpAuthRequest, auth: ResolvedAuth, rateLimiter: AuthRateLimiter, proxies: ProxySettings): BearerOutcome {
  if (auth.mode === "none") return { ok: true };
  const address = request.ingress.clientIp;
  if (auth.mode === "trusted-proxy" && auth.trustedProxy) {
    const identity = readProxyIdentity(request, auth.trustedProxy, proxies);
    if ("user" in identity) {
      if (request.headers["x-openclaw-scopes"] !== undefined) return { ok: false, status: 403, message: SCOPES_NOT_SUPPORTED };
      return { ok: true };
    }
    if (request.ingress.kind !== "direct-local" || !auth.password)
      return { ok: false, status: 401, message: proxyIdentityRefusal(identity.reason, auth.trustedProxy, request.ingress.kind === "direct-local") };
  }
  const retryAfterMs = rateLimiter.retryAfterMs(address);
  if (retryAfterMs > 0) return { ok: false, status: 429, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };

  const provided = bearerValue(request.headers.authorization);
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
