import type { ApprovalResolution, ExecApprovalRequest } from "../../agents/approvals/approval-broker.js";

/** What an exec approval asks, as OpenClaw's clients read it under `request`. */
export function execApprovalAsked(approval: ExecApprovalRequest) {
  const { command, cwd, agentId, sessionKey } = approval;
  return { command, ...(cwd ? { cwd } : {}), ...(agentId ? { agentId } : {}), ...(sessionKey ? { sessionKey } : {}) };
}

/**
 * The `exec.approval.requested` payload: OpenClaw's shape (`approvalKind`, `id`, `request`,
 * `createdAtMs`, `expiresAtMs`) plus the request's fields at the top level, which the Control UI
 * and the ACP bridge read.
 */
export function execApprovalRequestedEvent(approval: ExecApprovalRequest) {
  return { approvalKind: "exec" as const, ...wireFields(approval), request: execApprovalAsked(approval) };
}

/** A request's fields as clients see them: not how the gateway prompted chats. */
function wireFields(approval: ExecApprovalRequest): Omit<ExecApprovalRequest, "promptedInChat"> {
  const { promptedInChat: _internal, ...fields } = approval;
  return fields;
}

/** The `exec.approval.resolved` payload: the decision (null when none came in time) and what was asked. */
export function execApprovalResolvedEvent(resolution: ApprovalResolution, approval: ExecApprovalRequest) {
  return { ...resolution, request: execApprovalAsked(approval) };
}

/** A pending request as `exec.approval.list` lists it: its fields, and what is asked again under `request`. */
export function execApprovalListEntry(approval: ExecApprovalRequest) {
  return { ...wireFields(approval), request: execApprovalAsked(approval) };
}
