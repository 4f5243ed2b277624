import fs from "node:fs";
import path from "node:path";
import { defaultAgentId, listAgentConfigs, normalizeAgentId, type AgentsConfigView } from "../../agents/agent-config.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import type { Binding } from "../../channels/routing/resolve-agent-route.js";
import { agentReferences, type OpenClawConfig, type RawOpenClawConfig } from "../../config/index.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { agentIds, printGatewayNote, printWarnings, rawBindings, readAgentsConfigFile, runningGateway, saveConfigPatch, type AgentsConfigFile } from "./agents-config-file.js";
import { AgentsFileEdit } from "./agents-file-edit.js";
import { askConfirm, canAsk } from "../ask.js";
import { removeAllRouteBindings } from "./binding-edits.js";
import { describeBinding, isRouteBinding, ownerOf } from "./route-bindings.js";
import { existingAgentId } from "./target-agent.js";

/** The config's agents as they will be without `agentId` (both spellings). */
function withoutAgent(config: OpenClawConfig, agentId: string): AgentsConfigView {
  const entries = Object.fromEntries(Object.entries(config.agents?.entries ?? {}).filter(([key]) => normalizeAgentId(key) !== agentId));
  const list = (config.agents?.list ?? []).filter((entry) => normalizeAgentId(entry.id) !== agentId);
  return { agents: { ...config.agents, entries, list } };
}

/**
 * Keys other than route bindings that send chats or webhook turns to the agent (a chat entry's
 * `agentId`, a hook mapping's, the heartbeat's owner): the config would be invalid without the
 * agent, and moving them to another agent is the user's choice, so the delete is refused.
 */
function refuseStillNamed(config: OpenClawConfig, agentId: string): void {
  const named = agentReferences(config as RawOpenClawConfig).filter((ref) => normalizeAgentId(ref.agentId) === agentId && !ref.path.startsWith("bindings["));
  if (named.length === 0) return;
  throw new CliError(
    `Agent "${agentId}" is still named by ${named.map((ref) => ref.path).join(", ")}: point ${named.length === 1 ? "that key" : "those keys"} at another agent or remove ${named.length === 1 ? "it" : "them"} (openclaw config set / unset), then delete again. Config was not changed.`,
  );
}

/**
 * The agents left whose workspace would move: one without its own `workspace` that becomes the
 * default would take the default workspace (and its memory and persona) instead of its own.
 * Each keeps the one it has, written as its `workspace`.
 */
function workspacesToKeep(file: AgentsConfigFile, after: AgentsConfigView): { agentId: string; workspace: string }[] {
  return listAgentConfigs(after).flatMap((agent) => {
    const before = resolveWorkspaceDir(file.config, agent.id, file.stateDir, process.env);
    return resolveWorkspaceDir(after, agent.id, file.stateDir, process.env) === before ? [] : [{ agentId: agent.id, workspace: before }];
  });
}

/**
 * The agent's files on disk: its workspace (unless another agent works there too), its sessions
 * and model keys, its memory index. None is deleted.
 */
function agentFiles(file: AgentsConfigFile, agentId: string): string[] {
  const workspace = resolveWorkspaceDir(file.config, agentId, file.stateDir, process.env);
  const shared = listAgentConfigs(file.config).some((agent) => agent.id !== agentId && resolveWorkspaceDir(file.config, agent.id, file.stateDir, process.env) === workspace);
  const candidates = [...(shared ? [] : [workspace]), path.join(file.stateDir, "agents", agentId), path.join(file.stateDir, "memory", `${agentId}.sqlite`)];
  return candidates.filter((p) => fs.existsSync(p));
}

/**
 * `openclaw agents delete <id> [--force]`: removes the agent's entry (from `agents.entries` or
 * `agents.list`) and its route bindings in one validated write, after a confirmation on a terminal
 * (`--force` skips it; without a terminal it is required). The only agent cannot be deleted, nor
 * one other keys still send chats to. Files are kept and listed: this command deletes no file.
 */
export async function agentsDeleteCommand(idArg: string, flags: { force?: boolean; json?: boolean }): Promise<void> {
  const file = readAgentsConfigFile();
  const agentId = existingAgentId(file, idArg);
  if (agentIds(file).length === 1) throw new CliError(`Agent "${agentId}" is the only agent and cannot be deleted.`);
  refuseStillNamed(file.config, agentId);

  const edit = new AgentsFileEdit(file);
  edit.removeAgent(agentId);
  const ownsRoutes = ((file.config.bindings ?? []) as Binding[]).some((b) => isRouteBinding(b) && ownerOf(b) === agentId);
  const routes = ownsRoutes ? removeAllRouteBindings(rawBindings(file), agentId) : { bindings: [], removed: [] };
  if (routes.removed.length > 0) edit.setBindings(routes.bindings);
  const after = withoutAgent(file.config, agentId);
  const kept = workspacesToKeep(file, after);
  for (const { agentId: id, workspace } of kept) edit.setFields(id, { workspace });
  const wasDefault = defaultAgentId(file.config) === agentId;
  const files = agentFiles(file, agentId);

  if (!flags.force) {
    if (!canAsk())
      throw new CliError(`Deleting an agent needs confirmation: without a terminal, pass --force (openclaw agents delete ${agentId} --force). Config was not changed.`);
    const bindings = routes.removed.length > 0 ? ` and its ${routes.removed.length} routing binding${routes.removed.length === 1 ? "" : "s"}` : "";
    if (!(await askConfirm(`Delete agent "${agentId}"${bindings} from the config? Its files are kept.`, flags.json === true))) {
      return void process.stdout.write("Cancelled; nothing was changed.\n");
    }
  }
  const warnings = saveConfigPatch(file, edit.toPatch());
  const gateway = runningGateway(file);
  const newDefault = defaultAgentId(after);

  if (flags.json) {
    return printJson({
      agentId,
      removedBindings: routes.removed.map(describeBinding),
      defaultAgent: newDefault,
      ...(kept.length > 0 ? { workspacesWritten: kept } : {}),
      keptFiles: files,
      runningGateway: gateway,
      warnings,
    });
  }
  const lines = [`Updated config: ${file.file}`, `Deleted agent: ${agentId}`];
  if (routes.removed.length > 0) lines.push("Removed bindings:", ...routes.removed.map((b) => `- ${printable(describeBinding(b))}`));
  if (wasDefault) lines.push(`Default agent is now: ${newDefault}`);
  for (const { agentId: id, workspace } of kept)
    lines.push(`Agent "${id}" keeps its workspace ${printable(workspace)}, now written in its entry: as the default agent it would otherwise move to the default workspace.`);
  if (files.length > 0) lines.push("Files kept (this command deletes none; remove them when no longer needed):", ...files.map((p) => `- ${printable(p)}`));
  process.stdout.write(`${lines.join("\n")}\n`);
  printGatewayNote(gateway);
  printWarnings(warnings);
}
