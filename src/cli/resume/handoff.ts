import { parseSessionKey } from "../../sessions/keys/session-key.js";

/**
 * The payload of `openclaw resume --handoff <payload>`, as OpenClaw's Control UI copies it:
 * unpadded URL-safe base64 of the JSON `{"version":1,"sessionKey":…,"gatewayUrl":…}`, those three
 * keys and no others. The key is agent-qualified (`agent:<id>:<rest>`, at most 512 characters);
 * the URL is a `ws://` or `wss://` address (at most 2048 characters) with no credentials, query
 * or fragment. The encoded text is at most 4096 characters. It carries no secret.
 */
export interface ResumeHandoff {
  version: 1;
  sessionKey: string;
  gatewayUrl: string;
}

export const HANDOFF_MAX_ENCODED_LENGTH = 4096;
export const HANDOFF_MAX_SESSION_KEY_LENGTH = 512;
export const HANDOFF_MAX_GATEWAY_URL_LENGTH = 2048;

/** Every refusal says the same: the payload is only ever copied, never edited. */
export const INVALID_HANDOFF = "Invalid --handoff payload. Copy a fresh command from the Control UI.";

export class HandoffError extends Error {}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

export function decodeResumeHandoff(encoded: string): ResumeHandoff {
  if (encoded.length === 0 || encoded.length > HANDOFF_MAX_ENCODED_LENGTH || !BASE64URL.test(encoded)) throw new HandoffError(INVALID_HANDOFF);
  const bytes = Buffer.from(encoded, "base64url");
  // Only the canonical encoding of its bytes is accepted: a truncated or edited payload is not.
  if (bytes.toString("base64url") !== encoded) throw new HandoffError(INVALID_HANDOFF);
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    throw new HandoffError(INVALID_HANDOFF);
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw new HandoffError(INVALID_HANDOFF);
  const fields = payload as Record<string, unknown>;
  const keys = Object.keys(fields).sort().join(",");
  if (keys !== "gatewayUrl,sessionKey,version" || fields.version !== 1) throw new HandoffError(INVALID_HANDOFF);
  const { sessionKey, gatewayUrl } = fields;
  if (typeof sessionKey !== "string" || typeof gatewayUrl !== "string") throw new HandoffError(INVALID_HANDOFF);
  if (!validSessionKey(sessionKey) || !validGatewayUrl(gatewayUrl)) throw new HandoffError(INVALID_HANDOFF);
  return { version: 1, sessionKey, gatewayUrl };
}

/** The payload for a session on a gateway: what the Control UI would copy (for tests and tools). */
export function encodeResumeHandoff(sessionKey: string, gatewayUrl: string): string {
  return Buffer.from(JSON.stringify({ version: 1, sessionKey, gatewayUrl }), "utf8").toString("base64url");
}

function validSessionKey(key: string): boolean {
  // The limit counts user-perceived characters (grapheme clusters), as OpenClaw's does.
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(key)].length;
  if (key.length === 0 || graphemes > HANDOFF_MAX_SESSION_KEY_LENGTH || CONTROL.test(key)) return false;
  try {
    parseSessionKey(key);
    return true;
  } catch {
    return false;
  }
}

function validGatewayUrl(url: string): boolean {
  if (url.length === 0 || url.length > HANDOFF_MAX_GATEWAY_URL_LENGTH || CONTROL.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const authority = url.slice(url.indexOf("://") + 3).split("/", 1)[0] ?? "";
  if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") return false;
  return !url.includes("?") && !url.includes("#") && !authority.includes("@") && !parsed.username && !parsed.password;
}
