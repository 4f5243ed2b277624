import { alignColumns } from "../../infra/text-table.js";
import type { ClientFlags } from "../client-context.js";
import { printJson } from "../output.js";
import { printable } from "../printable.js";
import { roughDuration } from "./approval-text.js";
import { withGateway } from "../with-gateway.js";

/** One `exec.approval.list` entry: what is asked sits under `request`. */
interface ListedApproval {
  id: string;
  createdAtMs: number;
  expiresAtMs: number;
  request: { command: string; cwd?: string; agentId?: string; sessionKey?: string };
}

/** A pending approval as OpenClaw's `approvals pending --json` lists it, with the directory the command would run in. */
interface PendingApproval {
  id: string;
  kind: "exec";
  agentId: string | null;
  sessionKey: string | null;
  createdAtMs: number;
  expiresAtMs: number;
  summary: string;
  cwd: string | null;
}

/**
 * `openclaw approvals pending`: the exec approvals waiting for an answer (`exec.approval.list`),
 * newest first. Exec is the only kind here: this gateway runs no plugins and no system agent.
 */
export async function approvalsPendingCommand(flags: ClientFlags): Promise<void> {
  const listed = await withGateway(flags, (call) => call<ListedApproval[]>("exec.approval.list", {}));
  const approvals = listed.map(pendingEntry).sort((a, b) => b.createdAtMs - a.createdAtMs);
  if (flags.json) return printJson({ approvals });
  if (approvals.length === 0) return void process.stdout.write("No pending approvals.\n");
  const now = Date.now();
  const header = ["ID", "Kind", "Agent / Session", "Requested", "Expires In", "Directory", "Command"];
  const rows = approvals.map((a) => [
    a.id,
    a.kind,
    printable([a.agentId, a.sessionKey].filter(Boolean).join(" / ") || "-"),
    roughDuration(now - a.createdAtMs, "ago"),
    roughDuration(a.expiresAtMs - now, "until"),
    printable(a.cwd ?? "-"),
    printable(a.summary),
  ]);
  const lines = [`Pending approvals (${approvals.length})`, ...alignColumns([header, ...rows])];
  lines.push("", "Answer with `openclaw approvals resolve <id> allow-once|allow-always|deny`.");
  process.stdout.write(`${lines.join("\n")}\n`);
}

function pendingEntry(listed: ListedApproval): PendingApproval {
  const { request } = listed;
  return {
    id: listed.id,
    kind: "exec",
    agentId: request.agentId ?? null,
    sessionKey: request.sessionKey ?? null,
    createdAtMs: listed.createdAtMs,
    expiresAtMs: listed.expiresAtMs,
    summary: request.command,
    cwd: request.cwd ?? null,
  };
}
