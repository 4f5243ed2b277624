import { createHmac, timingSafeEqual } from "node:crypto";

/** Slack's limit: a request signed longer ago than this may be a replay. */
const MAX_SKEW_SECONDS = 5 * 60;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Verify `X-Slack-Signature`: `v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`
 * keyed with the app's signing secret, compared in constant time. Timestamps more than five
 * minutes away from now (either way) are refused.
 */
export function verifySlackSignature(params: { signingSecret: string; timestamp: string | undefined; signature: string | undefined; rawBody: Buffer; nowMs?: number }): SignatureCheck {
  const { timestamp, signature } = params;
  if (!timestamp || !signature) return { ok: false, reason: "missing X-Slack-Request-Timestamp or X-Slack-Signature" };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: "malformed X-Slack-Request-Timestamp" };
  const nowSeconds = Math.floor((params.nowMs ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_SKEW_SECONDS) return { ok: false, reason: "stale X-Slack-Request-Timestamp" };

  const hmac = createHmac("sha256", params.signingSecret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(params.rawBody);
  const expected = Buffer.from(`v0=${hmac.digest("hex")}`);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature mismatch" };
  return { ok: true };
}
