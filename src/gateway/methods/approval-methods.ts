import { Type } from "@sinclair/typebox";
import type { ApprovalRecord, ExecApprovalBroker } from "../../agents/approvals/approval-broker.js";
import { ErrorCodes, invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const Kind = Type.Union([Type.Literal("exec"), Type.Literal("plugin"), Type.Literal("system-agent")]);
const Decision = Type.Union([Type.Literal("allow-once"), Type.Literal("allow-always"), Type.Literal("deny")]);
const Id = Type.String({ minLength: 1, maxLength: 256 });
const ALLOWED_DECISIONS = ["allow-once", "allow-always", "deny"] as const;

/** OpenClaw's answer for an id no approval here has: its text and code are what its CLI matches. */
function approvalNotFound() {
  return invalidRequest("approval not found", { reason: ErrorCodes.APPROVAL_NOT_FOUND });
}

/**
 * One approval in OpenClaw's unified shape (`approval.get`, `approval.resolve`): what is asked as
 * an exec presentation, its status, and once ended when, how and by whom. A request nobody
 * answered in time is `expired`; one ended by the gateway shutting down is `cancelled`.
 */
export function approvalSnapshot(record: ApprovalRecord, urlPath: string) {
  const { request } = record;
  const common = {
    id: request.id,
    presentation: { kind: "exec" as const, commandText: request.command, ...(request.agentId ? { agentId: request.agentId } : {}), allowedDecisions: [...ALLOWED_DECISIONS] },
    urlPath,
    createdAtMs: request.createdAtMs,
    expiresAtMs: request.expiresAtMs,
  };
  if (record.pending) return { ...common, status: "pending" as const };
  const { resolution, end } = record;
  const ended = {
    ...common,
    resolvedAtMs: resolution.ts,
    source: { ...(request.agentId ? { agentId: request.agentId } : {}), ...(request.sessionKey ? { sessionKey: request.sessionKey } : {}) },
    resolver: end === "decision" ? { kind: "runtime" as const, ...(resolution.resolvedBy ? { id: resolution.resolvedBy } : {}) } : { kind: "system" as const },
  };
  if (end === "timeout") return { ...ended, status: "expired" as const, reason: "timeout" as const };
  if (end === "shutdown" || resolution.decision === null) return { ...ended, status: "cancelled" as const, reason: "gateway-restart" as const };
  if (resolution.decision === "deny") return { ...ended, status: "denied" as const, decision: "deny" as const, reason: "user" as const };
  return { ...ended, status: "allowed" as const, decision: resolution.decision, reason: "user" as const };
}

/**
 * OpenClaw's kind-agnostic approval methods over this gateway's exec approvals (the only kind it
 * has): `openclaw approvals resolve` looks an id up with `approval.get`, then answers it with
 * `approval.resolve`. An ended request stays answerable (as already resolved) for the last 200.
 * What this gateway cannot do is refused and changes nothing: a plugin or system-agent kind,
 * a channel reviewer, and an expiry on an allow-always grant (grants here last until restart).
 */
export function registerApprovalMethods(registry: MethodRegistry, broker: ExecApprovalBroker, urlPath: () => string): void {
  registry.register({
    name: "approval.get",
    scope: "operator.approvals",
    params: Type.Object({ id: Id }, { additionalProperties: false }),
    handler: (params) => {
      const record = broker.record(params.id);
      if (!record) throw approvalNotFound();
      return { approval: approvalSnapshot(record, urlPath()) };
    },
  });

  registry.register({
    name: "approval.resolve",
    scope: "operator.approvals",
    params: Type.Object(
      {
        id: Id,
        kind: Kind,
        decision: Decision,
        reviewer: Type.Optional(Type.Object({ channel: Type.String(), accountId: Type.String(), senderId: Type.String() }, { additionalProperties: false })),
        grantExpiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
      },
      { additionalProperties: false },
    ),
    handler: (params, { caller }) => {
      const record = broker.record(params.id);
      if (!record) throw approvalNotFound();
      if (params.kind !== "exec") {
        throw invalidRequest(`approval ${params.id} is an exec approval, not ${params.kind}: resend with kind "exec" (this gateway has exec approvals only)`);
      }
      if (params.reviewer) throw invalidRequest("not supported: approval.resolve on behalf of a channel reviewer; resolve as this connection (omit reviewer)");
      if (params.grantExpiresInDays !== undefined) {
        throw invalidRequest("not supported: grantExpiresInDays; allow-always grants here take no expiry (omit --expires-in-days)");
      }
      if (!record.pending) return { applied: false, approval: approvalSnapshot(record, urlPath()) };
      const applied = broker.resolve(params.id, params.decision, caller.clientId);
      const settled = broker.record(params.id);
      if (!settled || settled.pending) throw approvalNotFound();
      return { applied, approval: approvalSnapshot(settled, urlPath()) };
    },
  });
}
