/**
 * The least operator scope the gateway asks of each method a view offers as an action (the
 * gateway's own table is the method registry; test/unit/ui/method-scopes.test.ts keeps the two
 * equal). hello-ok lists every method whatever the connection's scopes, so a view asks here
 * before it shows a button the gateway would refuse.
 */
export const METHOD_SCOPES = {
  "agents.create": "operator.admin",
  "agents.update": "operator.admin",
  "agents.delete": "operator.admin",
  "channels.start": "operator.admin",
  "channels.stop": "operator.admin",
  "pairing.list": "operator.admin",
  "pairing.approve": "operator.admin",
  "pairing.reject": "operator.admin",
  "config.patch": "operator.admin",
  "config.set": "operator.admin",
  "config.apply": "operator.admin",
  "cron.add": "operator.admin",
  "cron.update": "operator.admin",
  "cron.remove": "operator.admin",
  "cron.run": "operator.admin",
  "tasks.cancel": "operator.write",
  "sessions.patch": "operator.write",
  "sessions.reset": "operator.admin",
  "sessions.compact": "operator.admin",
  "sessions.delete": "operator.admin",
  "exec.approval.list": "operator.approvals",
  "exec.approval.resolve": "operator.approvals",
  "chat.send": "operator.write",
  "chat.abort": "operator.write",
  "progressCard.refresh": "operator.write",
  "sessions.goal.update": "operator.write",
  "sessions.goal.clear": "operator.write",
  "question.list": "operator.questions",
  "question.resolve": "operator.questions",
  "traces.feedback": "operator.write",
  "traces.review.label": "operator.write",
  "traces.review.regrade": "operator.write",
} as const;

export type ScopedMethod = keyof typeof METHOD_SCOPES;

/** The gateway's rule: admin satisfies every operator scope; write satisfies read and talk; any other needs itself. */
export function scopeHeld(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  if (required.startsWith("operator.") && granted.includes("operator.admin")) return true;
  return (required === "operator.read" || required === "operator.talk") && granted.includes("operator.write");
}
