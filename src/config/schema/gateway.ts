import { type TProperties, Type } from "@sinclair/typebox";
import { integer, StringList, stringEnum, withExpected } from "./primitives.js";
import { OPERATOR_SCOPES } from "../operator-scopes.js";

export const GATEWAY_BIND_MODES = ["loopback", "lan", "auto", "tailnet", "custom"] as const;

const GatewayAuthRateLimit = Type.Object({
  maxAttempts: Type.Optional(integer(1)),
  windowMs: Type.Optional(integer(1)),
  lockoutMs: Type.Optional(integer(0)),
  exemptLoopback: Type.Optional(Type.Boolean()),
});

/** `mode: "trusted-proxy"`: an identity-aware reverse proxy authenticates users and names them in a header. */
const GatewayTrustedProxy = Type.Object({
  /** The header holding the authenticated user (e.g. `x-forwarded-user`). */
  userHeader: Type.String({ minLength: 1 }),
  /** Headers the proxy always sets; a request without any of them is refused. */
  requiredHeaders: Type.Optional(StringList),
  /** Users let in (exact, trimmed); empty or unset lets in every user the proxy authenticated. */
  allowUsers: Type.Optional(StringList),
  /** A proxy on this host (a loopback source) is believed too; off, loopback sources are refused. */
  allowLoopback: Type.Optional(Type.Boolean()),
});

const OperatorScopeList = Type.Array(stringEnum(OPERATOR_SCOPES));

const GatewayAuth = Type.Object({
  mode: Type.Optional(stringEnum(["none", "token", "password", "trusted-proxy"])),
  token: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  rateLimit: Type.Optional(GatewayAuthRateLimit),
  trustedProxy: Type.Optional(GatewayTrustedProxy),
  /** Operator scopes a verified proxy identity gets for its connection (email keys match case-insensitively). */
  identityScopes: Type.Optional(Type.Record(Type.String({ minLength: 1 }), OperatorScopeList)),
});

/** Where a `/v1` request's URL-sourced parts may come from and how large they may be. */
const urlPartFields = {
  /** Fetch `http(s)` URLs (never private, loopback or this host's addresses); off: only inline data. */
  allowUrl: Type.Optional(Type.Boolean()),
  /** Hosts URLs may name (`cdn.example.com`, `*.example.com`); empty or unset: any public host. */
  urlAllowlist: Type.Optional(StringList),
  allowedMimes: Type.Optional(Type.Array(Type.String({ pattern: "^[A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+$" }), { minItems: 1 })),
  maxBytes: Type.Optional(integer(1)),
  maxRedirects: Type.Optional(integer(0, 20)),
  timeoutMs: Type.Optional(integer(1)),
};

/** A `/v1` request's images (docs/http-api.md, "Images"). */
const HttpEndpointImages = Type.Object(urlPartFields);

/** What a `/v1` request's files take, inline or fetched (docs/http-api.md, "Files"); `maxChars` of each file's text reach the prompt. */
const fileReadFields = {
  allowedMimes: urlPartFields.allowedMimes,
  maxBytes: urlPartFields.maxBytes,
  /** Fetching a file URL, and reading a PDF. */
  timeoutMs: urlPartFields.timeoutMs,
  maxChars: Type.Optional(integer(1)),
  /** PDFs: the first `maxPages` pages' text; pages with less than `minTextChars` also rendered as images within `maxPixels` in all. */
  pdf: Type.Optional(Type.Object({ maxPages: Type.Optional(integer(1, 100)), maxPixels: Type.Optional(integer(1, 100_000_000)), minTextChars: Type.Optional(integer(0)) })),
};

/** Responses `input_file` parts may be URLs; Chat Completions `file` parts carry none, so they have no URL settings. */
const endpointFields = <T extends TProperties>(files: T) => ({
  enabled: Type.Optional(Type.Boolean()),
  images: Type.Optional(HttpEndpointImages),
  files: Type.Optional(Type.Object(files)),
  /** The most image and file parts of one request fetched by URL. */
  maxUrlParts: Type.Optional(integer(0, 64)),
});

const ChatCompletionsEndpoint = Type.Object(endpointFields(fileReadFields));
const ResponsesEndpoint = Type.Object(endpointFields({ ...urlPartFields, ...fileReadFields }));

const GatewayHttp = Type.Object({
  endpoints: Type.Optional(
    Type.Object({
      chatCompletions: Type.Optional(ChatCompletionsEndpoint),
      responses: Type.Optional(ResponsesEndpoint),
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
