import { randomUUID } from "node:crypto";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const WEBHOOK_RUN = new RegExp(`^agent:[^:]+:(?:hook:${UUID}|.+:run:${UUID})$`, "i");

/**
 * The session of one webhook agent run: a fresh `hook:<uuid>` without a named key, or
 * `<key>:run:<uuid>` for an isolated run under one (docs/automation.md#webhooks).
 */
export function buildWebhookRunSessionKey(named: string | undefined): string {
  return named === undefined ? `hook:${randomUUID()}` : `${named}:run:${randomUUID()}`;
}

/** True for a session one webhook run made for itself (canonical key, `agent:<id>:…`): nothing else ever writes to it. */
export function isWebhookRunSessionKey(sessionKey: string): boolean {
  return WEBHOOK_RUN.test(sessionKey);
}
