import { timingSafeEqual } from "node:crypto";
import type { Update } from "grammy/types";
import type { ChannelHttpRoute } from "../../src/channels/types.js";

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

export interface WebhookRouteOptions {
  path: string;
  secret: string;
  /** False until `getMe` answered (mentions cannot be judged before) and after `stop`. */
  isReady(): boolean;
  /** Resolves once the gateway recorded the update durably. */
  deliver(update: Update): Promise<void>;
}

/**
 * The webhook endpoint Telegram POSTs updates to. Only a 200 tells Telegram the update is
 * taken; any other answer makes it retry later (and give up after a number of attempts), which
 * is what a not-yet-ready or failing gateway wants.
 */
export function createWebhookRoute(options: WebhookRouteOptions): ChannelHttpRoute {
  return {
    method: "POST",
    path: options.path,
    async handler({ headers, rawBody }) {
      if (!secretMatches(headers[SECRET_HEADER], options.secret)) return { status: 403, body: "secret token mismatch" };
      let update: unknown;
      try {
        update = JSON.parse(rawBody.toString("utf8"));
      } catch {
        return { status: 400, body: "body is not JSON" };
      }
      if (!isUpdate(update)) return { status: 400, body: "body is not a Telegram update" };
      if (!options.isReady()) return { status: 503, body: "not ready" };
      try {
        await options.deliver(update);
      } catch {
        // `deliver` logged it; a 500 makes Telegram send the update again later.
        return { status: 500, body: "update not recorded" };
      }
      return { status: 200, headers: { "x-openclaw-delivery-accepted": "durable" } };
    },
  };
}

function secretMatches(header: string | string[] | undefined, secret: string): boolean {
  const provided = Buffer.from(Array.isArray(header) ? (header[0] ?? "") : (header ?? ""));
  const expected = Buffer.from(secret);
  return expected.length > 0 && provided.length === expected.length && timingSafeEqual(provided, expected);
}

function isUpdate(value: unknown): value is Update {
  return typeof value === "object" && value !== null && Number.isInteger((value as { update_id?: unknown }).update_id);
}
