import type { DeliveryEntry } from "./delivery-ledger.js";

/**
 * What the caller of a failed send is told. A reply split in parts may have failed after its
 * first parts went out: the answer names them (count and platform message ids), since they
 * are in the chat and are never sent again, and says how to send only the rest.
 */
export function describeFailedSend(entry: DeliveryEntry | undefined): string {
  const error = entry?.lastError ?? entry?.reason ?? "unknown error";
  const sentIds = Object.entries(entry?.sent ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, messageId]) => messageId);
  const total = entry?.chunks?.length ?? 0;
  if (sentIds.length === 0) return `delivery failed: ${error}`;
  return (
    `delivery failed after ${sentIds.length} of ${total} parts went out (message ids ${sentIds.join(", ")}): ${error}; ` +
    "the parts that went out are not sent again: send again with the same idempotencyKey to send only the rest"
  );
}
