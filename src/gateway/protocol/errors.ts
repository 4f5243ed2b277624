/** Error shape and codes of the wire protocol (see docs/protocol.md). */
export const ErrorCodes = {
  NOT_LINKED: "NOT_LINKED",
  NOT_PAIRED: "NOT_PAIRED",
  AGENT_TIMEOUT: "AGENT_TIMEOUT",
  AGENT_RESULT_NOT_FOUND: "AGENT_RESULT_NOT_FOUND",
  INVALID_REQUEST: "INVALID_REQUEST",
  FORBIDDEN: "FORBIDDEN",
  APPROVAL_NOT_FOUND: "APPROVAL_NOT_FOUND",
  UNAVAILABLE: "UNAVAILABLE",
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  retryable?: boolean;
  retryAfterMs?: number;
}

/** Thrown by method handlers; the dispatcher turns it into an error response. */
export class GatewayError extends Error {
  readonly shape: ErrorShape;
  constructor(shape: ErrorShape) {
    super(shape.message);
    this.shape = shape;
  }
}

export function invalidRequest(message: string, details?: Record<string, unknown>): GatewayError {
  return new GatewayError({ code: ErrorCodes.INVALID_REQUEST, message, ...(details ? { details } : {}) });
}

/** Keeps the legacy `missing scope: <scope>` text old clients parse. */
export function missingScope(scope: string): GatewayError {
  return new GatewayError({
    code: ErrorCodes.FORBIDDEN,
    message: `missing scope: ${scope}`,
    details: { code: "MISSING_SCOPE", missingScope: scope, requiredScopes: [scope] },
  });
}

export function unavailable(message: string, retryAfterMs?: number): GatewayError {
  return new GatewayError({
    code: ErrorCodes.UNAVAILABLE,
    message,
    retryable: true,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
