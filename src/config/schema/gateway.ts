import { Type } from "@sinclair/typebox";
import { integer, StringList, stringEnum, withExpected } from "./primitives.js";

export const GATEWAY_BIND_MODES = ["loopback", "lan", "auto", "tailnet", "custom"] as const;

const GatewayAuthRateLimit = Type.Object({
  maxAttempts: Type.Optional(integer(1)),
  windowMs: Type.Optional(integer(1)),
  lockoutMs: Type.Optional(integer(0)),
  exemptLoopback: Type.Optional(Type.Boolean()),
});

const GatewayAuth = Type.Object({
  mode: Type.Optional(stringEnum(["none", "token", "password"])),
  token: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  rateLimit: Type.Optional(GatewayAuthRateLimit),
});

const HttpEndpointToggle = Type.Object({ enabled: Type.Optional(Type.Boolean()) });

const GatewayHttp = Type.Object({
  endpoints: Type.Optional(
    Type.Object({
      chatCompletions: Type.Optional(HttpEndpointToggle),
      responses: Type.Optional(HttpEndpointToggle),
    }),
  ),
  securityHeaders: Type.Optional(
    Type.Object({
      /** The `Strict-Transport-Security` value sent on every HTTP response (only behind HTTPS you control); `false` or unset: none. */
      strictTransportSecurity: Type.Optional(Type.Union([Type.String({ minLength: 1, pattern: "\\S" }), Type.Literal(false)])),
    }),
  ),
});

/** Credentials a *client* (CLI, TUI) uses to reach a gateway running elsewhere. */
const GatewayRemote = Type.Object({
  url: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  /** The SHA-256 fingerprint a `wss://` remote gateway's certificate must have (64 hex digits, colons allowed): the pin replaces CA verification. */
  tlsFingerprint: Type.Optional(
    withExpected(
      Type.String({ pattern: "^\\s*(?:[Ss][Hh][Aa]256:)?(?:[0-9A-Fa-f]{64}|[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){31})\\s*$" }),
      "a SHA-256 certificate fingerprint: 64 hex digits, or 32 colon-separated pairs as `openssl x509 -noout -fingerprint -sha256` prints them",
    ),
  ),
});

/** HTTPS and WSS on the gateway's own port (one listener: TLS only, when enabled). */
const GatewayTls = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  /** When neither the certificate nor the key exists, generate a self-signed pair there at start (default true). */
  autoGenerate: Type.Optional(Type.Boolean()),
  certPath: Type.Optional(Type.String({ minLength: 1 })),
  keyPath: Type.Optional(Type.String({ minLength: 1 })),
  caPath: Type.Optional(Type.String({ minLength: 1 })),
});

const GatewayControlUi = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  basePath: Type.Optional(Type.String()),
  allowedOrigins: Type.Optional(StringList),
});

export const GatewaySchema = Type.Object({
  mode: Type.Optional(stringEnum(["local", "remote"])),
  port: Type.Optional(integer(1, 65535)),
  bind: Type.Optional(stringEnum(GATEWAY_BIND_MODES)),
  customBindHost: Type.Optional(Type.String()),
  auth: Type.Optional(GatewayAuth),
  reload: Type.Optional(Type.Object({ mode: Type.Optional(stringEnum(["hybrid", "off"])) })),
  http: Type.Optional(GatewayHttp),
  remote: Type.Optional(GatewayRemote),
  tls: Type.Optional(GatewayTls),
  controlUi: Type.Optional(GatewayControlUi),
  /** Reverse proxies (addresses or CIDR ranges) whose forwarding headers name the client; forwarding headers from anyone else are refused. */
  trustedProxies: Type.Optional(StringList),
  /** With no `X-Forwarded-For`, a trusted proxy's `X-Real-IP` names the client. */
  allowRealIpFallback: Type.Optional(Type.Boolean()),
  /** `POST /tools/invoke` and `tools.invoke`: `deny` blocks more tools than the built-in list, `allow` takes tools off that list. */
  tools: Type.Optional(Type.Object({ allow: Type.Optional(StringList), deny: Type.Optional(StringList) })),
});
