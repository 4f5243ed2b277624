import { GatewayClientError } from "../../gateway/client.js";
import type { ClientFlags } from "../client-context.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { withGateway, type GatewayCall } from "../with-gateway.js";
import type { APPROVAL_DECISIONS } from "./register-approvals.js";

type Decision = (typeof APPROVAL_DECISIONS)[number];

/** The parts of OpenClaw's unified approval snapshot (`approval.get`, `approval.resolve`) this command reads. */
interface ApprovalSnapshot {
  id: string;
  status: "pending" | "allowed" | "denied" | "expired" | "cancelled";
  presentation: { kind: string; allowedDecisions: string[] };
  decision?: Decision;
  reason?: string;
  resolver?: { kind: string; id?: string };
}

interface Resolved {
  applied: boolean;
  approval: ApprovalSnapshot;
}

/**
 * `openclaw approvals resolve <id> <decision>`: looks the approval up (`approval.get`), then
 * answers it (`approval.resolve`). The first answer wins: the same decision again is reported as
 * already resolved (exit 0), another one fails naming the decision recorded first, and an approval
 * nobody answered in time fails as expired. `--reason` is a note for this confirmation only.
 */
export async function approvalsResolveCommand(id: string, decision: Decision, flags: ClientFlags & { reason?: string }): Promise<void> {
  const reason = flags.reason?.trim();
  if (flags.reason !== undefined && !reason) throw new CliError("--reason: expected a note, got an empty one");
  const result = await withGateway(flags, async (call) => {
    const { approval } = await lookUp(call, id);
    if (approval.status === "pending" && !approval.presentation.allowedDecisions.includes(decision)) {
      throw new CliError(`approval ${id} does not take ${decision}; it takes ${approval.presentation.allowedDecisions.join(", ")}`);
    }
    return call<Resolved>("approval.resolve", { id, kind: approval.presentation.kind, decision });
  });
  const { approval } = result;
  if (!approval.decision) throw new CliError(unanswered(approval));
  if (approval.decision !== decision) throw new CliError(`Approval ${id} was already resolved with ${approval.decision} by ${resolverName(approval)}.`);
  if (flags.json) return printJson({ ...result, alreadyResolved: !result.applied, ...(reason ? { cliReason: reason } : {}) });
  const settled = result.applied ? `resolved ${decision}` : `already resolved (same decision: ${decision})`;
  process.stdout.write(`Approval ${id} ${settled} by ${resolverName(approval)}${reason ? `; CLI reason: ${printable(reason)}` : ""}.\n`);
}

/** `approval.get`, with an id the gateway does not know named in the failure. */
async function lookUp(call: GatewayCall, id: string): Promise<{ approval: ApprovalSnapshot }> {
  try {
    return await call<{ approval: ApprovalSnapshot }>("approval.get", { id });
  } catch (err) {
    if (err instanceof GatewayClientError && err.error?.details?.reason === "APPROVAL_NOT_FOUND") {
      throw new CliError(
        `no approval with id ${printable(id)} on this gateway (it keeps the pending ones and the last 200 answered); see the waiting ones with \`openclaw approvals pending\``,
      );
    }
    throw err;
  }
}

/** Why an approval ended with no decision: nobody answered in time, or the gateway stopped first. */
function unanswered(approval: ApprovalSnapshot): string {
  if (approval.status === "expired") return `Approval ${approval.id} expired. Nobody answered in time, so the command was not run; the agent may ask again.`;
  if (approval.status === "cancelled") return `Approval ${approval.id} was cancelled (${approval.reason ?? "no reason given"}): the gateway stopped before anyone answered.`;
  return `Approval ${approval.id} did not settle to a recorded decision (status ${approval.status}).`;
}

/** Who answered, as OpenClaw prints it: `runtime:cli` (the answering client's id), `system`. */
function resolverName(approval: ApprovalSnapshot): string {
  const resolver = approval.resolver;
  if (!resolver) return "unknown resolver";
  return resolver.id ? `${resolver.kind}:${printable(resolver.id)}` : resolver.kind;
}
