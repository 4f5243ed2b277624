import { planAgentDelete } from "../../agents/roster/agent-delete-plan.js";
import { existingAgentId } from "../../agents/roster/agents-file.js";
import { describeBinding } from "../../agents/roster/route-bindings.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { printGatewayNote, printWarnings, readAgentsConfigFile, runningGateway, saveConfigPatch } from "./agents-config-file.js";
import { askConfirm, canAsk } from "../ask.js";

/**
 * `openclaw agents delete <id> [--force]`: removes the agent's entry (from `agents.entries` or
 * `agents.list`) and its route bindings in one validated write, after a confirmation on a terminal
 * (`--force` skips it; without a terminal it is required). The only agent cannot be deleted, nor
 * one other keys still send chats to. Files are kept and listed: this command deletes no file.
 */
export async function agentsDeleteCommand(idArg: string, flags: { force?: boolean; json?: boolean }): Promise<void> {
  const file = readAgentsConfigFile();
  const agentId = existingAgentId(file, idArg);
  const { edit, removedBindings: removed, workspacesWritten: kept, keptFiles: files, wasDefault, newDefault } = planAgentDelete(file, agentId);

  if (!flags.force) {
    if (!canAsk())
      throw new CliError(`Deleting an agent needs confirmation: without a terminal, pass --force (openclaw agents delete ${agentId} --force). Config was not changed.`);
    const bindings = removed.length > 0 ? ` and its ${removed.length} routing binding${removed.length === 1 ? "" : "s"}` : "";
    if (!(await askConfirm(`Delete agent "${agentId}"${bindings} from the config? Its files are kept.`, flags.json === true))) {
      return void process.stdout.write("Cancelled; nothing was changed.\n");
    }
  }
  const warnings = saveConfigPatch(file, edit.toPatch());
  const gateway = runningGateway(file);

  if (flags.json) {
    return printJson({
      agentId,
      removedBindings: removed.map(describeBinding),
      defaultAgent: newDefault,
      ...(kept.length > 0 ? { workspacesWritten: kept } : {}),
      keptFiles: files,
      runningGateway: gateway,
      warnings,
    });
  }
  const lines = [`Updated config: ${file.file}`, `Deleted agent: ${agentId}`];
  if (removed.length > 0) lines.push("Removed bindings:", ...removed.map((b) => `- ${printable(describeBinding(b))}`));
  if (wasDefault) lines.push(`Default agent is now: ${newDefault}`);
  for (const { agentId: id, workspace } of kept)
    lines.push(`Agent "${id}" keeps its workspace ${printable(workspace)}, now written in its entry: as the default agent it would otherwise move to the default workspace.`);
  if (files.length > 0) lines.push("Files kept (this command deletes none; remove them when no longer needed):", ...files.map((p) => `- ${printable(p)}`));
  process.stdout.write(`${lines.join("\n")}\n`);
  printGatewayNote(gateway);
  printWarnings(warnings);
}
