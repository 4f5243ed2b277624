import {
  CLIENT_MODES, DEFAULT_OPERATOR_SCOPES, MIN_PROTOCOL_VERSION, OPERATOR_SCOPES, PROTOCOL_VERSION,
} from "./protocol/constants.js";
import { ErrorCodes, type ErrorShape } from "./protocol/errors.js";
import { connectParamsValidator, type ConnectParams } from "./protocol/frames.js";
import { checkSharedSecret } from "./auth/connect-auth.js";
import { verifyDeviceProof } from "./auth/device-auth.js";
import type { ResolvedAuth } from "./auth/resolve-auth.js";
import type { AuthRateLimiter } from "./auth/rate-limiter.js";

export interface HandshakeInput {
  params: unknown;
  nonce: string;
  remoteAddress: string;
  auth: ResolvedAuth;
  rateLimiter: AuthRateLimiter;
  now: number;
}

export interface AcceptedConnect {
  ok: true;
  params: ConnectParams;
  protocol: number;
  role: string;
  scopes: string[];
  caps: string[];
  deviceId?: string;
}

export interface RejectedConnect {
  ok: false;
  error: ErrorShape;
  /** Close reason for the 1008 that follows the error response. */
  closeReason: string;
}

/**
 * Decide whether a `connect` request may open a session: shape, protocol range, role,
 * rate limit, shared secret, then the optional device proof. Pure apart from the limiter.
 */
export function evaluateConnect(input: HandshakeInput): AcceptedConnect | RejectedConnect {
  const params = normalizeConnectParams(input.params);
  if (!connectParamsValidator.check(params)) {
    return reject(ErrorCodes.INVALID_REQUEST, `invalid connect params: ${connectParamsValidator.firstError(params)}`);
  }
  if (params.maxProtocol < MIN_PROTOCOL_VERSION || params.minProtocol > PROTOCOL_VERSION || params.minProtocol > params.maxProtocol) {
    return reject(ErrorCodes.INVALID_REQUEST, `protocol mismatch: gateway speaks ${MIN_PROTOCOL_VERSION}..${PROTOCOL_VERSION}, client asked ${params.minProtocol}..${params.maxProtocol}`, {
      code: "PROTOCOL_MISMATCH",
      serverProtocol: PROTOCOL_VERSION,
      minProtocol: MIN_PROTOCOL_VERSION,
    }, "protocol mismatch");
  }
  const role = params.role ?? "operator";
  if (role !== "operator" && role !== "node") {
    return reject(ErrorCodes.INVALID_REQUEST, `invalid connect params: unsupported role "${role}"`);
  }

  const retryAfterMs = input.rateLimiter.retryAfterMs(input.remoteAddress);
  if (retryAfterMs > 0) {
    const message = "unauthorized: too many failed authentication attempts (retry later)";
    return {
      ok: false,
      closeReason: message,
      error: {
        code: ErrorCodes.INVALID_REQUEST, message, retryable: true, retryAfterMs,
        details: { code: "AUTH_RATE_LIMITED", authReason: "rate_limited", recommendedNextStep: "wait_then_retry" },
      },
    };
  }

  const secret = checkSharedSecret(input.auth, params.auth);
  if (!secret.ok) {
    if (secret.countsAsFailure) input.rateLimiter.recordFailure(input.remoteAddress);
    return reject(ErrorCodes.INVALID_REQUEST, secret.message, {
      code: secret.detailsCode,
      authReason: secret.detailsCode.toLowerCase().replace(/^auth_/, ""),
      recommendedNextStep: "update_auth_credentials",
      canRetryWithDeviceToken: false,
    });
  }

  const scopes = role === "operator" ? grantOperatorScopes(params.scopes) : [];
  let deviceId: string | undefined;
  if (params.device) {
    const device = verifyDeviceProof(params.device, {
      nonce: input.nonce,
      clientId: params.client.id,
      clientMode: params.client.mode,
      role,
      scopes: params.scopes ?? [],
      token: params.auth?.token ?? "",
      platform: params.client.platform,
      deviceFamily: params.client.deviceFamily,
      now: input.now,
    });
    if (!device.ok) {
      return reject(ErrorCodes.INVALID_REQUEST, device.message, { code: device.detailsCode, reason: device.reason });
    }
    deviceId = device.deviceId;
  }
  input.rateLimiter.recordSuccess(input.remoteAddress);
  return {
    ok: true,
    params,
    protocol: Math.min(PROTOCOL_VERSION, params.maxProtocol),
    role,
    scopes,
    caps: params.caps ?? [],
    ...(deviceId ? { deviceId } : {}),
  };
}

/**
 * A shared-secret client holds the gateway's full authority, so it gets the scopes it asks for;
 * asking for none means the CLI's default set. Unknown scope names grant nothing.
 */
function grantOperatorScopes(requested: string[] | undefined): string[] {
  if (!requested) return [...DEFAULT_OPERATOR_SCOPES];
  const known = new Set<string>(OPERATOR_SCOPES);
  return [...new Set(requested.filter((s) => known.has(s)))];
}

/**
 * Client ids and modes are matched case-insensitively, and the `mode: "operator"` that the upstream
 * docs' example shows is read as `cli` rather than rejected, so clients built from those docs can
 * connect.
 */
function normalizeConnectParams(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const params = raw as Record<string, unknown>;
  const client = params.client;
  if (!client || typeof client !== "object" || Array.isArray(client)) return raw;
  const c = { ...(client as Record<string, unknown>) };
  if (typeof c.id === "string") c.id = c.id.toLowerCase();
  if (typeof c.mode === "string") {
    const mode = c.mode.toLowerCase();
    c.mode = mode === "operator" && !(CLIENT_MODES as readonly string[]).includes(mode) ? "cli" : mode;
  }
  return { ...params, client: c };
}

function reject(code: ErrorShape["code"], message: string, details?: Record<string, unknown>, closeReason = message): RejectedConnect {
  return { ok: false, closeReason, error: { code, message, ...(details ? { details } : {}) } };
}
