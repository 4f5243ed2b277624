import type http from "node:http";

/** Sent on every HTTP response of the gateway's port, whatever route answers (or none). */
const BASELINE_HEADERS: readonly (readonly [string, string])[] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "no-referrer"],
  ["Permissions-Policy", "camera=(), geolocation=()"],
];

/**
 * Sets the baseline security headers on `res` before any route runs, and
 * `Strict-Transport-Security` when `gateway.http.securityHeaders.strictTransportSecurity` gives
 * a value (meant for a gateway reached over HTTPS through a proxy the user controls).
 */
export function setSecurityHeaders(res: http.ServerResponse, strictTransportSecurity: string | false | undefined): void {
  for (const [name, value] of BASELINE_HEADERS) res.setHeader(name, value);
  if (typeof strictTransportSecurity === "string") res.setHeader("Strict-Transport-Security", strictTransportSecurity.trim());
}
