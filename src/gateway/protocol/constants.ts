/** Wire constants of the OpenClaw gateway protocol; docs/protocol.md describes them. */
export const PROTOCOL_VERSION = 4;
/** Oldest protocol we still speak: v3 clients from early 2026 keep working. */
export const MIN_PROTOCOL_VERSION = 3;

/** Sockets start with this frame limit (refused from the frame header) until hello-ok. */
export const MAX_PREAUTH_PAYLOAD_BYTES = 64 * 1024;
/**
 * Sockets still in the handshake at once; more upgrades get 503 until some finish or time out.
 * With the pre-auth frame limit this bounds what unauthenticated peers make the gateway hold
 * (256 × 64 KiB = 16 MiB of frames at the most).
 */
export const MAX_PENDING_HANDSHAKES = 256;
export const MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_BUFFERED_BYTES = 50 * 1024 * 1024;
/** What real OpenClaw 2026.9 advertises (its docs say 15 s; the wire says 30 s). */
export const DEFAULT_TICK_INTERVAL_MS = 30_000;
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
export const HEALTH_BROADCAST_INTERVAL_MS = 60_000;
export const DEVICE_SIGNATURE_SKEW_MS = 120_000;

export const CLOSE_POLICY_VIOLATION = 1008;
export const CLOSE_MESSAGE_TOO_BIG = 1009;
export const CLOSE_SERVICE_RESTART = 1012;
export const CLOSE_UNSUPPORTED_DATA = 1003;

export const CLIENT_IDS = [
  "webchat-ui",
  "openclaw-control-ui",
  "openclaw-browser-copilot",
  "openclaw-tui",
  "webchat",
  "cli",
  "gateway-client",
  "openclaw-macos",
  "openclaw-linux",
  "openclaw-ios",
  "openclaw-watchos",
  "openclaw-android",
  "node-host",
  "openclaw-worker",
  "test",
  "fingerprint",
  "openclaw-probe",
] as const;

export const CLIENT_MODES = ["webchat", "cli", "ui", "backend", "node", "worker", "probe", "test"] as const;

export { OPERATOR_SCOPES } from "../../config/operator-scopes.js";

/** What a shared-secret client gets when it names no scopes: the CLI's default request. */
export const DEFAULT_OPERATOR_SCOPES = ["operator.admin", "operator.read", "operator.write", "operator.approvals", "operator.pairing"];

/** Connections in these modes are tools, not people: they do not appear in presence. */
export const NON_PRESENCE_MODES = new Set(["cli", "backend", "probe"]);
