import { invalidRequest } from "../protocol/errors.js";

/**
 * An idempotency key names one message. A request whose key already named a message to another
 * session is a new message under a used key: refused, so it is not answered as the first one's
 * duplicate while its own text is dropped.
 */
export function assertKeyForSession(idempotencyKey: string, firstSessionKey: string, sessionKey: string): void {
  if (firstSessionKey === sessionKey) return;
  throw invalidRequest(`idempotencyKey "${idempotencyKey}" was already used for a message to ${firstSessionKey}; send this message with a new idempotencyKey`);
}
