import type { ApprovalDecision, ExecApprovalBroker } from "./approval-broker.js";
import { runsCodeFromArguments } from "./code-runners.js";
import { commandPrograms, evaluateExecPolicy, type ExecPolicySettings } from "./exec-policy.js";

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

/**
 * The exec tool's gate: policy first; on "ask", a request to the approval broker (a gateway
 * event answered by `exec.approval.resolve`). Without a broker (an embedded `--local` run) or
 * without an answer in time, the command is denied — the fallback is always the safe side.
 * `allow-always` adds every program the approved line starts (but safe bins and programs that
 * run code from their arguments) to the broker's granted programs of the asking agent, which
 * every gate on that broker (that agent's later turns and `/bash`) allows until the gateway
 * stops; a line the shell grammar cannot read with certainty is approved once only.
 */
export function createExecApprovalGate(
  settings: ExecPolicySettings,
  broker?: Pick<ExecApprovalBroker, "request" | "grantedPrograms">,
  timeoutMs?: number,
  observe?: (report: ExecGateReport) => void,
) {
  const decide = async (command: string, ctx: ExecGateContext): Promise<ExecGateReport> => {
    // Without a broker nobody can answer allow-always: nothing is ever learned.
    const learned = broker?.grantedPrograms(ctx.agentId) ?? [];
    const verdict = evaluateExecPolicy(command, { ...settings, allowlist: [...settings.allowlist, ...learned] });
    if (verdict.verdict === "allow") return { command, policy: "allow", allowed: true };
    if (verdict.verdict === "deny") return { command, policy: "deny", allowed: false, reason: verdict.reason };
    if (!broker) return { command, policy: "ask", answer: "no-approver", allowed: false, reason: `approval required (${verdict.reason}) but no approver is connected; denied` };
    const { decision } = broker.request({ command, cwd: ctx.cwd, agentId: ctx.agentId, sessionKey: ctx.sessionKey, reason: verdict.reason }, timeoutMs);
    const answer: ApprovalDecision | null = await decision;
    if (answer === "allow-once") return { command, policy: "ask", answer, allowed: true };
    if (answer === "allow-always") {
      // A learned name is matched exactly, so one holding a glob character is not learned. A safe
      // bin stays a stdin filter, and a program that runs code from its arguments is approved
      // for this line only (code-runners.ts).
      for (const bin of commandPrograms(command) ?? []) {
        if (bin.includes("*") || learned.includes(bin) || settings.safeBins.includes(bin) || runsCodeFromArguments(bin)) continue;
        learned.push(bin);
      }
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
