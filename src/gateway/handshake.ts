import { CLIENT_MODES, DEFAULT_OPERATOR_SCOPES, MIN_PROTOCOL_VERSION, OPERATOR_SCOPES, PROTOCOL_VERSION } from "./protocol/constants.js";
import { ErrorCodes, type ErrorShape } from "./protocol/errors.js";
import { connectParamsValidator, type ConnectParams } from "./protocol/frames.js";
import { checkSharedSecret } from "./auth/connect-auth.js";
import { verifyDeviceProof } from "./auth/device-auth.js";
import type { ResolvedAuth } from "./auth/resolve-auth.js";
import type { AuthRateLimiter } from "./auth/rate-limiter.js";
import type { DeviceDescriptor, DeviceRegistry, PairingReason } from "./auth/device-registry.js";
import { identityOperatorScopes, type ProxyIdentity } from "./auth/trusted-proxy.js";

export interface HandshakeInput {
  params: unknown;
  nonce: string;
  remoteAddress: string;
  auth: ResolvedAuth;
  rateLimiter: AuthRateLimiter;
  now: number;
  /** Paired devices; without it, device proofs are checked but nothing is paired. */
  devices?: DevicePairing;
  /** In `trusted-proxy` auth mode: what the upgrade request proved. */
  proxy?: ProxyContext;
}

/** What a `trusted-proxy` gateway read from a connection's upgrade request. */
export interface ProxyContext {
  identity: ProxyIdentity;
  /** From this host with no forwarding headers: may use `gateway.auth.password` instead of the proxy. */
  localDirect: boolean;
  /** The proxy's `x-openclaw-scopes` cap on what the connection gets. */
  capScopes: (scopes: readonly string[]) => string[];
}

/** What the handshake needs of the device registry. */
export type DevicePairing = Pick<DeviceRegistry, "get" | "tokenMatches" | "issueToken" | "touch" | "pairTrusted" | "requestPairing">;

export interface AcceptedConnect {
  ok: true;
  params: ConnectParams;
  protocol: number;
  role: string;
  scopes: string[];
  caps: string[];
  deviceId?: string;
  /**
   * How the client proved itself: the gateway's shared secret (or auth none), a paired device's
   * token, or an identity-aware proxy's word (`trusted-proxy` mode, with `proxyUser`).
   */
  authVia: "shared-secret" | "device-token" | "trusted-proxy";
  /** The user the proxy vouched for. */
  proxyUser?: string;
  /** Issued on this connect: goes to the client once, in hello-ok.auth. */
  deviceToken?: { token: string; issuedAtMs: number };
}

export interface RejectedConnect {
  ok: false;
  error: ErrorShape;
  /** The rejection already counted as a failed attempt for the address's lockout. */
  countedFailure?: boolean;
  /** Close reason for the 1008 that follows the error response. */
  closeReason: string;
}

/**
 * Decide whether a `connect` request may open a session: shape, protocol range, role,
 * rate limit, the optional device proof, then the shared secret or, without it, the device's token
 * or a pairing request (docs/protocol.md, "Device pairing"). Pure apart from the limiter and the
 * device registry.
 */
export function evaluateConnect(input: HandshakeInput): AcceptedConnect | RejectedConnect {
  const params = normalizeConnectParams(input.params);
  if (!connectParamsValidator.check(params)) {
    return reject(ErrorCodes.INVALID_REQUEST, `invalid connect params: ${connectParamsValidator.firstError(params)}`);
  }
  if (params.maxProtocol < MIN_PROTOCOL_VERSION || params.minProtocol > PROTOCOL_VERSION || params.minProtocol > params.maxProtocol) {
    return reject(
      ErrorCodes.INVALID_REQUEST,
      `protocol mismatch: gateway speaks ${MIN_PROTOCOL_VERSION}..${PROTOCOL_VERSION}, client asked ${params.minProtocol}..${params.maxProtocol}`,
      {
        code: "PROTOCOL_MISMATCH",
        serverProtocol: PROTOCOL_VERSION,
        minProtocol: MIN_PROTOCOL_VERSION,
      },
      "protocol mismatch",
    );
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
        code: ErrorCodes.INVALID_REQUEST,
        message,
        retryable: true,
        retryAfterMs,
        details: { code: "AUTH_RATE_LIMITED", authReason: "rate_limited", recommendedNextStep: "wait_then_retry" },
      },
    };
  }

  const proxyUser = input.auth.mode === "trusted-proxy" && input.proxy && "user" in input.proxy.identity ? input.proxy.identity.user : undefined;
  const secret = proxyUser !== undefined ? ({ ok: true } as const) : checkSharedSecret(input.auth, params.auth, input.proxy);
  let device: DeviceDescriptor | undefined;
  if (params.device) {
    const proof = verifyDeviceProof(params.device, {
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
    if (!proof.ok) {
      return reject(ErrorCodes.INVALID_REQUEST, proof.message, { code: proof.detailsCode, reason: proof.reason });
    }
    device = {
      deviceId: proof.deviceId,
      publicKey: params.device.publicKey,
      clientId: params.client.id,
      clientMode: params.client.mode,
      platform: params.client.platform,
      ...(params.client.displayName ? { displayName: params.client.displayName } : {}),
      role,
      scopes: role === "operator" ? knownScopes(params.scopes ?? []) : [],
      remoteAddress: input.remoteAddress,
    };
  }

  if (!secret.ok) {
    // Without the shared secret, only a device with its key proof can get in: by its device token, or by pairing.
    if (device && input.devices) {
      const result = deviceConnect(input, params, role, device);
      // A wrong shared secret still counts toward the lockout when the device does not get in:
      // a key proof must not turn the secret into something that can be guessed freely.
      if (!result.ok && secret.countsAsFailure && !result.countedFailure) input.rateLimiter.recordFailure(input.remoteAddress);
      return result;
    }
    if (secret.countsAsFailure) input.rateLimiter.recordFailure(input.remoteAddress);
    return reject(ErrorCodes.INVALID_REQUEST, secret.message, {
      code: secret.detailsCode,
      authReason: secret.authReason ?? secret.detailsCode.toLowerCase().replace(/^auth_/, ""),
      recommendedNextStep: "update_auth_credentials",
      canRetryWithDeviceToken: false,
    });
  }

  if (proxyUser !== undefined) return proxyConnect(input, params, role, device, proxyUser);
  const scopes = role === "operator" ? grantOperatorScopes(params.scopes) : [];
  input.rateLimiter.recordSuccess(input.remoteAddress);
  const accepted: AcceptedConnect = { ok: true, params, protocol: Math.min(PROTOCOL_VERSION, params.maxProtocol), role, scopes, caps: params.caps ?? [], authVia: "shared-secret" };
  if (!device) return accepted;
  accepted.deviceId = device.deviceId;
  if (!input.devices) return accepted;
  // A shared-secret holder could approve its own device, so its device is paired at once; it gets a
  // token when it has none or did not present the one it has.
  input.devices.pairTrusted({ ...device, scopes });
  const presented = params.auth?.deviceToken;
  if (!presented || !input.devices.tokenMatches(device.deviceId, presented)) accepted.deviceToken = input.devices.issueToken(device.deviceId);
  else input.devices.touch(device.deviceId);
  return accepted;
}

/**
 * A user an identity-aware proxy vouched for. The proxy proves who the user is, not that they own
 * the gateway: a device still needs approval (or its token) like one without the secret, and a
 * connection without a device gets only what `gateway.auth.identityScopes` grants that user.
 * Either way the proxy's `x-openclaw-scopes` caps the result.
 */
function proxyConnect(input: HandshakeInput, params: ConnectParams, role: string, device: DeviceDescriptor | undefined, user: string): AcceptedConnect | RejectedConnect {
  const proxy = input.proxy!;
  const granted = role === "operator" ? identityOperatorScopes(user, input.auth.trustedProxy?.identityScopes ?? {}) : [];
  if (device && input.devices) {
    const result = deviceConnect(input, params, role, device);
    if (!result.ok) return result;
    return { ...result, scopes: proxy.capScopes([...new Set([...result.scopes, ...granted])]), authVia: "trusted-proxy", proxyUser: user };
  }
  if (role !== "operator") {
    return reject(ErrorCodes.INVALID_REQUEST, "device identity required: a node connecting through the trusted proxy must sign with its paired device key");
  }
  input.rateLimiter.recordSuccess(input.remoteAddress);
  return {
    ok: true,
    params,
    protocol: Math.min(PROTOCOL_VERSION, params.maxProtocol),
    role,
    scopes: proxy.capScopes(granted),
    caps: params.caps ?? [],
    authVia: "trusted-proxy",
    proxyUser: user,
  };
}

/** A device without the shared secret: its token, its first token after approval, or a pairing request. */
function deviceConnect(input: HandshakeInput, params: ConnectParams, role: string, device: DeviceDescriptor): AcceptedConnect | RejectedConnect {
  const devices = input.devices!;
  const paired = devices.get(device.deviceId);
  const askPairing = (reason: PairingReason): RejectedConnect => {
    const request = devices.requestPairing(device, reason);
    if (!request) {
      return {
        ok: false,
        closeReason: "pairing queue full",
        error: { code: ErrorCodes.UNAVAILABLE, message: "too many pairing requests are waiting; try again later", retryable: true, retryAfterMs: 60_000 },
      };
    }
    const message = `pairing required: ${reason === "not-paired" ? "this device is not paired with the gateway" : `the device asks for more than it was approved for (${reason})`}; approve it with \`openclaw devices approve ${request.requestId}\``;
    return {
      ok: false,
      closeReason: `pairing required (requestId: ${request.requestId})`,
      error: {
        code: ErrorCodes.NOT_PAIRED,
        message,
        details: {
          code: "PAIRING_REQUIRED",
          reason,
          requestId: request.requestId,
          deviceId: device.deviceId,
          requestedRole: role,
          requestedScopes: device.scopes,
          ...(paired ? { approvedRoles: [paired.role], approvedScopes: paired.scopes } : {}),
          recommendedNextStep: "wait_then_retry",
          waitForResolution: true,
          retryable: true,
        },
      },
    };
  };
  if (!paired || paired.publicKey !== device.publicKey) return askPairing("not-paired");
  const presented = params.auth?.deviceToken ?? params.auth?.token;
  if (paired.tokenHash) {
    if (!presented) {
      return reject(ErrorCodes.INVALID_REQUEST, "unauthorized: device token missing (send the device token this gateway issued in auth.token)", {
        code: "AUTH_TOKEN_MISSING",
        authReason: "token_missing",
        recommendedNextStep: "retry_with_device_token",
        canRetryWithDeviceToken: true,
      });
    }
    if (!devices.tokenMatches(device.deviceId, presented)) {
      input.rateLimiter.recordFailure(input.remoteAddress);
      return {
        ...reject(ErrorCodes.INVALID_REQUEST, "unauthorized: device token mismatch (pair the device again: `openclaw devices list`)", {
          code: "AUTH_DEVICE_TOKEN_MISMATCH",
          authReason: "device_token_mismatch",
          recommendedNextStep: "update_auth_credentials",
          canRetryWithDeviceToken: false,
        }),
        countedFailure: true,
      };
    }
  }
  if (role !== paired.role) return askPairing("role-upgrade");
  const requested = params.scopes === undefined ? paired.scopes : device.scopes;
  if (!requested.every((scope) => paired.scopes.includes(scope))) return askPairing("scope-upgrade");
  input.rateLimiter.recordSuccess(input.remoteAddress);
  const accepted: AcceptedConnect = {
    ok: true,
    params,
    protocol: Math.min(PROTOCOL_VERSION, params.maxProtocol),
    role,
    scopes: requested,
    caps: params.caps ?? [],
    deviceId: device.deviceId,
    authVia: "device-token",
  };
  // Approved but never connected since: this connect proves the key, and the device gets its token.
  if (!paired.tokenHash) accepted.deviceToken = devices.issueToken(device.deviceId);
  else devices.touch(device.deviceId);
  return accepted;
}

function knownScopes(requested: readonly string[]): string[] {
  const known = new Set<string>(OPERATOR_SCOPES);
  return [...new Set(requested.filter((s) => known.has(s)))];
}

/**
 * A shared-secret client holds the gateway's full authority, so it gets the scopes it asks for;
 * asking for none means the CLI's default set. Unknown scope names grant nothing.
 */
function grantOperatorScopes(requested: string[] | undefined): string[] {
  return requested ? knownScopes(requested) : [...DEFAULT_OPERATOR_SCOPES];
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
