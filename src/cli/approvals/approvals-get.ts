import path from "node:path";
import type { ExecApprovalsSnapshot, GrantEntry } from "../../gateway/methods/exec-approvals-snapshot.js";
import { alignColumns } from "../../infra/text-table.js";
import type { ClientFlags } from "../client-context.js";
import { printJson } from "../output.js";
import { printable } from "../printable.js";
import { shellLine } from "./approval-text.js";
import { withGateway } from "../with-gateway.js";

/**
 * `openclaw approvals get`: the exec policy the gateway enforces (`exec.approvals.get`, in
 * OpenClaw's approvals-file shape): where it is set, its defaults, the allowlist every agent
 * shares (`tools.exec.allowlist`, under agent `*`) and each agent's `allow-always` grants.
 * There are no nodes here: it is always the gateway's own policy.
 */
export async function approvalsGetCommand(flags: ClientFlags): Promise<void> {
  const snapshot = await withGateway(flags, (call) => call<ExecApprovalsSnapshot>("exec.approvals.get", {}));
  if (flags.json) return printJson(snapshot);
  const { file } = snapshot;
  const entries = Object.entries(file.agents).flatMap(([agentId, agent]) => agent.allowlist.map((entry) => allowlistRow(agentId, entry)));
  const configName = path.basename(snapshot.path);
  const lines = [
    "Exec approvals (the gateway's policy)",
    ...alignColumns([
      ["Path", snapshot.path],
      ["State", snapshot.exists ? "tools.exec is set there" : "tools.exec is not set there: the defaults apply"],
      ["Hash", snapshot.hash],
      ["Defaults", `security=${file.defaults.security}, ask=${file.defaults.ask}, askFallback=${file.defaults.askFallback}`],
      ["Agents", String(Object.keys(file.agents).length)],
      ["Allowlist", String(entries.length)],
    ]).map((line) => `  ${line}`),
    "",
  ];
  if (entries.length === 0) lines.push("Allowlist: empty (tools.exec.allowlist names no program and no agent holds an allow-always grant)");
  else lines.push("Allowlist", ...alignColumns([["Agent", "Pattern", "Scope", "Command", "Directory", "Source"], ...entries]).map((line) => `  ${line}`));
  lines.push(
    "",
    `One policy for every agent: tools.exec in ${configName}. Change it with \`openclaw config set tools.exec.<key> <value>\` (security, ask, allowlist).`,
    "An agent's allow-always grants each run that exact command in that directory without asking.",
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** One allowlist row: a `*` entry is a program every agent may run with any arguments; an agent's entry is an allow-always grant. */
function allowlistRow(agentId: string, entry: { pattern: string } | GrantEntry): string[] {
  if (!("argPattern" in entry)) return [agentId, printable(entry.pattern), "any args", "-", "-", "tools.exec.allowlist"];
  const added = new Date(entry.addedAt).toISOString().replace("T", " ").slice(0, 16);
  return [printable(agentId), printable(entry.pattern), "argv+cwd", printable(shellLine(entry.argv)), printable(entry.cwd), `allow-always ${added} UTC`];
}
