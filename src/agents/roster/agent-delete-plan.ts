import fs from "node:fs";
import path from "node:path";
import { agentReferences, type OpenClawConfig, type RawOpenClawConfig } from "../../config/index.js";
import { defaultAgentId, listAgentConfigs, normalizeAgentId, type AgentsConfigView } from "../agent-config.js";
import { resolveWorkspaceDir } from "../context/workspace.js";
import { AgentRosterError, agentIds, rawBindings, type AgentsConfigFile } from "./agents-file.js";
import { AgentsFileEdit } from "./agents-file-edit.js";
import { removeAllRouteBindings } from "./binding-edits.js";
import { isRouteBinding, ownerOf, type Binding } from "./route-bindings.js";

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
  throw new AgentRosterError(
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

export interface AgentDeletePlan {
  edit: AgentsFileEdit;
  removedBindings: Binding[];
  /** Agents left whose current workspace is now written in their entry. */
  workspacesWritten: { agentId: string; workspace: string }[];
  wasDefault: boolean;
  newDefault: string;
  /** The agent's files that exist; the delete keeps them. */
  keptFiles: string[];
}

/**
 * Deleting `agentId` (a configured id): its entry (from `agents.entries` or `agents.list`) and its
 * route bindings go in one write; the agents left keep their workspaces. The only agent cannot
 * be deleted, nor one other keys still send chats to. No file is deleted.
 */
export function planAgentDelete(file: AgentsConfigFile, agentId: string): AgentDeletePlan {
  if (agentIds(file).length === 1) throw new AgentRosterError(`Agent "${agentId}" is the only agent and cannot be deleted.`);
  refuseStillNamed(file.config, agentId);
  const edit = new AgentsFileEdit(file);
  edit.removeAgent(agentId);
  const ownsRoutes = ((file.config.bindings ?? []) as Binding[]).some((b) => isRouteBinding(b) && ownerOf(b) === agentId);
  const routes = ownsRoutes ? removeAllRouteBindings(rawBindings(file), agentId) : { bindings: [], removed: [] };
  if (routes.removed.length > 0) edit.setBindings(routes.bindings);
  const after = withoutAgent(file.config, agentId);
  const workspacesWritten = workspacesToKeep(file, after);
  for (const { agentId: id, workspace } of workspacesWritten) edit.setFields(id, { workspace });
  return {
    edit,
    removedBindings: routes.removed,
    workspacesWritten,
    wasDefault: defaultAgentId(file.config) === agentId,
    newDefault: defaultAgentId(after),
    keptFiles: agentFiles(file, agentId),
  };
}
