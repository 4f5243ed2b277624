import { loadBolt } from "./slack-sdk.js";

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Verify `X-Slack-Signature` with bolt's own `verifySlackRequest` (HMAC-SHA256 of
 * `v0:<timestamp>:<raw body>` keyed with the signing secret, compared in constant time, requests
 * older than five minutes refused). The headers are checked for presence and shape first, since
 * bolt expects both to be there.
 */
export async function verifySlackSignature(params: {
  signingSecret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
  nowMs?: number;
}): Promise<SignatureCheck> {
  const { timestamp, signature } = params;
  if (!timestamp || !signature) return { ok: false, reason: "missing X-Slack-Request-Timestamp or X-Slack-Signature" };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: "malformed X-Slack-Request-Timestamp" };
  const { verifySlackRequest } = await loadBolt();
  try {
    verifySlackRequest({
      signingSecret: params.signingSecret,
      body: params.rawBody.toString("utf8"),
      headers: { "x-slack-signature": signature, "x-slack-request-timestamp": Number(timestamp) },
      ...(params.nowMs === undefined ? {} : { nowMilliseconds: params.nowMs }),
    });
    return { ok: true };
  } catch (error) {
    // Bolt prefixes every reason with "Failed to verify authenticity: "; the caller says that already.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: message.replace(/^Failed to verify authenticity:\s*/, "") };
  }
}
