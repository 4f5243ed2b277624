import type { ApprovalDecision, ExecApprovalBroker } from "./approval-broker.js";
import type { ExecGrantFile } from "./exec-grant-file.js";
import { grantsFor } from "./exec-grants.js";
import { evaluateExecPolicy, type ExecPolicySettings } from "./exec-policy.js";

export interface ExecGateContext {
  agentId: string;
  sessionKey?: string;
  cwd?: string;
}

export type ExecGateDecision = { allowed: true } | { allowed: false; reason: string };

/** How one command was decided: the policy's verdict, the operator's answer when it asked, the outcome. */
export interface ExecGateReport {
  command: string;
  policy: "allow" | "deny" | "ask";
  answer?: ApprovalDecision | "timeout" | "no-approver";
  allowed: boolean;
  reason?: string;
}

/** What a gate needs of the approval broker: someone to ask, and the grants `allow-always` answers made. */
export type GateBroker = Pick<ExecApprovalBroker, "request"> & { grants: Pick<ExecGrantFile, "grants" | "add"> };

/**
 * The exec tool's gate: policy first; on "ask", a request to the approval broker (a gateway
 * event answered by `exec.approval.resolve`). Without a broker (an embedded `--local` run) or
 * without an answer in time, the command is denied — the fallback is always the safe side.
 * `allow-always` grants each simple command of the approved line, exactly as written and in the
 * directory it runs in (exec-grants.ts), to the asking agent: every gate on that broker (that
 * agent's later turns and `/bash`) runs it there without asking, also after a restart; a line
 * the shell grammar cannot read with certainty is approved once only.
 */
export function createExecApprovalGate(settings: ExecPolicySettings, broker?: GateBroker, timeoutMs?: number, observe?: (report: ExecGateReport) => void) {
  const decide = async (command: string, ctx: ExecGateContext): Promise<ExecGateReport> => {
    // Without a broker nobody can answer allow-always: nothing is ever granted.
    const grants = broker?.grants.grants(ctx.agentId) ?? [];
    const verdict = evaluateExecPolicy(command, { ...settings, grants, ...(ctx.cwd !== undefined ? { cwd: ctx.cwd } : {}) });
    if (verdict.verdict === "allow") return { command, policy: "allow", allowed: true };
    if (verdict.verdict === "deny") return { command, policy: "deny", allowed: false, reason: verdict.reason };
    if (!broker) return { command, policy: "ask", answer: "no-approver", allowed: false, reason: `approval required (${verdict.reason}) but no approver is connected; denied` };
    const { decision } = broker.request({ command, cwd: ctx.cwd, agentId: ctx.agentId, sessionKey: ctx.sessionKey, reason: verdict.reason }, timeoutMs);
    const answer: ApprovalDecision | null = await decision;
    if (answer === "allow-once") return { command, policy: "ask", answer, allowed: true };
    if (answer === "allow-always") {
      // Saved before the command runs, so a crash during it still leaves the grant.
      const granted = ctx.cwd !== undefined ? grantsFor(command, ctx.cwd, settings.safeBins) : undefined;
      if (granted) broker.grants.add(ctx.agentId, granted);
      return { command, policy: "ask", answer, allowed: true };
    }
    return {
      command,
      policy: "ask",
      answer: answer ?? "timeout",
      allowed: false,
      reason: answer === "deny" ? "an operator denied this command" : "no approval arrived in time; denied",
    };
  };
  return {
    async check(command: string, ctx: ExecGateContext): Promise<ExecGateDecision> {
      const report = await decide(command, ctx);
      observe?.(report);
      return report.allowed ? { allowed: true } : { allowed: false, reason: report.reason! };
    },
  };
}
