import path from "node:path";
import type { ExecApprovalsFile, ExecApprovalsSnapshot, GrantEntry } from "../../gateway/methods/exec-approvals-snapshot.js";
import type { ClientFlags } from "../client-context.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { shellLine } from "./approval-text.js";
import { withGateway, type GatewayCall } from "../with-gateway.js";

/** The agent OpenClaw's `allowlist remove` edits when `--agent` is not given: the one every agent shares. */
const EVERY_AGENT = "*";

/**
 * `openclaw approvals allowlist remove <pattern> [--agent <id>]`: takes back the agent's
 * `allow-always` grants of that program (`exec.approvals.set` with the file `exec.approvals.get`
 * answered, less those entries); the agent's next such command asks again. The allowlist every
 * agent shares (agent `*`) is `tools.exec.allowlist` in the config: removing from it is refused
 * with the `openclaw config set` line that does it. Nothing to remove is not a failure, as in
 * OpenClaw; an agent the gateway does not know is.
 */
export async function approvalsAllowlistRemoveCommand(pattern: string, flags: ClientFlags & { agent?: string }): Promise<void> {
  const program = pattern.trim();
  if (!program) throw new CliError("name the program whose grants to take back, e.g. `openclaw approvals allowlist remove ls --agent main`");
  const agentId = flags.agent?.trim() || EVERY_AGENT;
  await withGateway(flags, async (call) => {
    const before = await call<ExecApprovalsSnapshot>("exec.approvals.get", {});
    if (agentId === EVERY_AGENT) return notFromTheSharedAllowlist(program, before, flags.json);
    const held = (before.file.agents[agentId]?.allowlist ?? []).filter((entry): entry is GrantEntry => "argPattern" in entry);
    const removed = held.filter((grant) => grant.pattern === program);
    if (removed.length === 0) {
      if (!before.file.agents[agentId]) await mustBeKnownAgent(call, agentId);
      if (flags.json) return printJson(before);
      return void process.stdout.write(`Pattern not found: agent ${printable(agentId)} holds no allow-always grant of ${printable(program)}; nothing changed.\n`);
    }
    const after = await call<ExecApprovalsSnapshot>("exec.approvals.set", { file: withoutGrants(before.file, agentId, program), baseHash: before.hash });
    if (flags.json) return printJson(after);
    const lines = [`Took back ${removed.length} allow-always grant${removed.length === 1 ? "" : "s"} of ${printable(program)} from agent ${printable(agentId)}; it asks again:`];
    for (const grant of removed) lines.push(`  ${printable(shellLine(grant.argv))}  (in ${printable(grant.cwd)})`);
    process.stdout.write(`${lines.join("\n")}\n`);
  });
}

/** The approvals file less the agent's grants of `program`; an agent left with none is left out. */
function withoutGrants(file: ExecApprovalsFile, agentId: string, program: string): ExecApprovalsFile {
  const agents = { ...file.agents };
  const kept = agents[agentId]!.allowlist.filter((entry) => entry.pattern !== program);
  if (kept.length > 0) agents[agentId] = { allowlist: kept };
  else delete agents[agentId];
  return { ...file, agents };
}

/**
 * Agent `*` is `tools.exec.allowlist`, changed in the config. A pattern that is there is refused
 * with the line that removes it; one that is not is nothing to remove (then an agent holding
 * grants of it is named, since `--agent` was probably meant).
 */
function notFromTheSharedAllowlist(program: string, snapshot: ExecApprovalsSnapshot, json: boolean | undefined): void {
  const shared = (snapshot.file.agents[EVERY_AGENT]?.allowlist ?? []).map((entry) => entry.pattern);
  const configFile = path.basename(snapshot.path);
  if (shared.includes(program)) {
    const rest = JSON.stringify(shared.filter((entry) => entry !== program));
    throw new CliError(
      `not supported: ${program} is in tools.exec.allowlist in ${configFile}, the allowlist every agent shares; remove it there: \`openclaw config set tools.exec.allowlist '${rest}'\` (this command takes back an agent's allow-always grants: pass --agent <id>)`,
    );
  }
  if (json) return printJson(snapshot);
  const holders = Object.entries(snapshot.file.agents)
    .filter(([agentId, agent]) => agentId !== EVERY_AGENT && agent.allowlist.some((entry) => entry.pattern === program))
    .map(([agentId]) => agentId);
  const hint = holders.length > 0 ? `; agent ${holders.map(printable).join(", ")} holds allow-always grants of it: add --agent <id>` : "";
  process.stdout.write(`Pattern not found: ${printable(program)} is not in tools.exec.allowlist${hint}; nothing changed.\n`);
}

/** An `--agent` that holds nothing must still be one the gateway knows. */
async function mustBeKnownAgent(call: GatewayCall, agentId: string): Promise<void> {
  const { agents } = await call<{ agents: { id: string }[] }>("agents.list", {});
  if (agents.some((agent) => agent.id === agentId)) return;
  throw new CliError(`unknown agent "${printable(agentId)}": agents here are ${agents.map((agent) => agent.id).join(", ")}`);
}
