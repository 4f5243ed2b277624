/** admin satisfies every operator scope; write satisfies read and talk; others need an exact match. */
export function scopeSatisfied(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  if (required.startsWith("operator.") && granted.includes("operator.admin")) return true;
  if ((required === "operator.read" || required === "operator.talk") && granted.includes("operator.write")) return true;
  return false;
}

/** Broadcast events any authenticated socket may receive, whatever its scopes. */
const UNRESTRICTED_EVENTS = new Set(["tick", "presence", "heartbeat", "health", "shutdown"]);

export function canReceiveEvent(granted: readonly string[], event: string): boolean {
  if (UNRESTRICTED_EVENTS.has(event)) return true;
  if (event.startsWith("exec.approval.") || event.startsWith("plugin.approval.")) return scopeSatisfied(granted, "operator.approvals");
  if (event.startsWith("device.pair.")) return scopeSatisfied(granted, "operator.pairing");
  if (event.startsWith("question.")) return scopeSatisfied(granted, "operator.questions");
  return scopeSatisfied(granted, "operator.read");
}
