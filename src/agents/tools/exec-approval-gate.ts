import type { ToolContext } from "../types.js";

export type ExecApprovalDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Decides whether a shell command may run (allowlists, a human or a reviewer model: §6.5 of the
 * runtime reference). The exec tool asks it before spawning anything; the caller provides it as
 * `services.execApprovals`. Without one, every command is allowed (OpenClaw's `full` mode).
 */
export interface ExecApprovalGate {
  check(command: string, ctx: ToolContext): Promise<ExecApprovalDecision>;
}

export function isExecApprovalGate(value: unknown): value is ExecApprovalGate {
  return typeof value === "object" && value !== null && typeof (value as { check?: unknown }).check === "function";
}
