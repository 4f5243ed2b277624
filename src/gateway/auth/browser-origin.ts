import { ErrorCodes, type ErrorShape } from "../protocol/errors.js";

/**
 * Which browser pages may open the gateway's WebSocket. Browsers send an `Origin` header with
 * every WebSocket upgrade; other clients (CLI, SDKs) send none and are not affected. A page
 * served from this machine (localhost, 127.x, [::1]) may connect; any other origin must be
 * listed in `gateway.controlUi.allowedOrigins` (exact `scheme://host[:port]`, or `*`), so a
 * web page elsewhere cannot drive the gateway with a token it tricked out of the user.
 */
export function checkBrowserOrigin(origin: string | undefined, allowedOrigins: readonly string[]): { ok: true } | { ok: false; error: ErrorShape } {
  if (origin === undefined) return { ok: true };
  const normalized = normalizeOrigin(origin);
  if (normalized && isLoopbackOrigin(normalized)) return { ok: true };
  if (allowedOrigins.includes("*")) return { ok: true };
  if (normalized && allowedOrigins.some((allowed) => normalizeOrigin(allowed)?.origin === normalized.origin)) return { ok: true };
  return {
    ok: false,
    error: {
      code: ErrorCodes.INVALID_REQUEST,
      message: `origin not allowed: ${origin.slice(0, 200)} (open the Control UI from the gateway's own machine, or add this origin to gateway.controlUi.allowedOrigins)`,
      details: { code: "CONTROL_UI_ORIGIN_NOT_ALLOWED", origin: origin.slice(0, 200) },
    },
  };
}

function normalizeOrigin(value: string): URL | undefined {
  try {
    const url = new URL(value.trim());
    return url.origin === "null" ? undefined : url;
  } catch {
    return undefined;
  }
}

function isLoopbackOrigin(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
