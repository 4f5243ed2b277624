import type { Binding } from "../../channels/routing/resolve-agent-route.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { printGatewayNote, printWarnings, readAgentsConfigFile, runningGateway, saveConfigPatch } from "./agents-config-file.js";
import { existingAgentId, rawBindings } from "../../agents/roster/agents-file.js";
import { AgentsFileEdit } from "../../agents/roster/agents-file-edit.js";
import { addRouteBindings, removeAllRouteBindings, removeRouteBindings } from "../../agents/roster/binding-edits.js";
import { bindingsSummary, printBindingChanges, printRemovedBindings, removedSummary } from "./binding-report.js";
import { parseBindSpecs, unconfiguredChannelNotes } from "./bind-specs.js";
import { describeBinding, isRouteBinding, ownerOf } from "../../agents/roster/route-bindings.js";
import { targetAgentId } from "./target-agent.js";

/**
 * `openclaw agents bindings [--agent <id>]`: the route bindings of the config (or of one agent), in
 * config order, as `<agent> <- <match>`. ACP bindings choose no agent and are not listed.
 */
export function agentsBindingsCommand(flags: { agent?: string; json?: boolean }): void {
  const file = readAgentsConfigFile();
  const agentId = flags.agent === undefined ? undefined : existingAgentId(file, flags.agent);
  const routes = ((file.config.bindings ?? []) as Binding[]).filter((b) => isRouteBinding(b) && (agentId === undefined || ownerOf(b) === agentId));
  if (flags.json) return printJson(routes.map((b) => ({ agentId: ownerOf(b), match: b.match, description: describeBinding(b) })));
  if (routes.length === 0) return void process.stdout.write(agentId ? `No routing bindings for agent "${agentId}".\n` : "No routing bindings.\n");
  process.stdout.write(`${["Routing bindings:", ...routes.map((b) => `- ${printable(ownerOf(b))} <- ${printable(describeBinding(b))}`)].join("\n")}\n`);
}

/**
 * `openclaw agents bind [--agent <id>] --bind <channel[:accountId]>...`: adds route bindings to the
 * agent (the default agent without --agent). A binding another agent has is not taken: it is named
 * on stderr and the command exits 1 (the others are still added).
 */
export function agentsBindCommand(flags: { agent?: string; bind?: string[]; json?: boolean }): void {
  const file = readAgentsConfigFile();
  const agentId = targetAgentId(file, flags.agent);
  if (!flags.bind?.length) throw new CliError("Provide at least one --bind <channel[:accountId]>.");
  const result = addRouteBindings(rawBindings(file), agentId, parseBindSpecs(flags.bind, agentId));
  const changed = result.added.length > 0 || result.updated.length > 0;
  let warnings: string[] = [];
  if (changed) {
    const edit = new AgentsFileEdit(file);
    edit.setBindings(result.bindings);
    warnings = [...unconfiguredChannelNotes(file.config, [...result.added, ...result.updated]), ...saveConfigPatch(file, edit.toPatch())];
  }
  if (result.conflicts.length > 0) process.exitCode = 1;
  const gateway = changed ? runningGateway(file) : "none";
  if (flags.json) return printJson({ agentId, ...bindingsSummary(result), ...(changed ? { runningGateway: gateway } : {}), warnings });
  if (changed) process.stdout.write(`Updated config: ${file.file}\n`);
  printBindingChanges(result);
  printGatewayNote(gateway);
  printWarnings(warnings);
}

/**
 * `openclaw agents unbind [--agent <id>] (--bind <channel[:accountId]>... | --all)`: removes the
 * agent's route bindings that match those chats, or all of them (peer, guild, team and role ones
 * too). Another agent's binding is never removed: it is named on stderr and the command exits 1.
 */
export function agentsUnbindCommand(flags: { agent?: string; bind?: string[]; all?: boolean; json?: boolean }): void {
  const file = readAgentsConfigFile();
  const agentId = targetAgentId(file, flags.agent);
  const specs = flags.bind ?? [];
  if (flags.all && specs.length > 0) throw new CliError("Use either --all or --bind, not both.");
  if (!flags.all && specs.length === 0) throw new CliError("Provide at least one --bind <channel[:accountId]> or use --all.");
  const current = rawBindings(file);
  const result = flags.all ? { ...removeAllRouteBindings(current, agentId), missing: [], conflicts: [] } : removeRouteBindings(current, agentId, parseBindSpecs(specs, agentId));
  const changed = result.removed.length > 0;
  let warnings: string[] = [];
  if (changed) {
    const edit = new AgentsFileEdit(file);
    edit.setBindings(result.bindings);
    warnings = saveConfigPatch(file, edit.toPatch());
  }
  if (result.conflicts.length > 0) process.exitCode = 1;
  const gateway = changed ? runningGateway(file) : "none";
  if (flags.json) return printJson({ agentId, ...removedSummary(result), ...(changed ? { runningGateway: gateway } : {}), warnings });
  if (changed) process.stdout.write(`Updated config: ${file.file}\n`);
  if (flags.all && !changed) process.stdout.write(`No bindings to remove for agent "${agentId}".\n`);
  else printRemovedBindings(result);
  printGatewayNote(gateway);
  printWarnings(warnings);
}
