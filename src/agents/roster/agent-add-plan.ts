import { AGENT_ID_DESCRIPTION, AGENT_ID_PATTERN } from "../../config/index.js";
import { listAgentConfigs, normalizeAgentId } from "../agent-config.js";
import { resolveWorkspaceDir } from "../context/workspace.js";
import { AgentRosterError, agentIds, definesNoAgents, type AgentsConfigFile } from "./agents-file.js";
import { AgentsFileEdit } from "./agents-file-edit.js";

const agentIdPattern = new RegExp(AGENT_ID_PATTERN);

/** Why `id` cannot be a new agent's id (not a valid id, or one already there), else undefined. */
export function newAgentIdProblem(file: AgentsConfigFile, id: string): string | undefined {
  if (!agentIdPattern.test(id)) return `an agent id: ${AGENT_ID_DESCRIPTION}`;
  return agentIds(file).includes(id) ? `agent "${id}" already exists` : undefined;
}

/** The id a name gives, as the config normalizes agent ids (trimmed, lower-case); one it would refuse, or one already there, is refused. */
export function newAgentId(file: AgentsConfigFile, name: string): string {
  const id = normalizeAgentId(name);
  if (!agentIdPattern.test(id)) throw new AgentRosterError(`"${name}" is not a valid agent id: it must be ${AGENT_ID_DESCRIPTION}.`);
  if (agentIds(file).includes(id)) throw new AgentRosterError(`Agent "${id}" already exists.`);
  return id;
}

/**
 * Agents that shared one workspace would share its MEMORY.md, persona and files: a workspace
 * another agent (other than `exceptAgentId`) already uses is refused.
 */
export function refuseSharedWorkspace(file: AgentsConfigFile, workspace: string, exceptAgentId?: string): void {
  for (const agent of listAgentConfigs(file.config)) {
    if (agent.id === exceptAgentId) continue;
    if (resolveWorkspaceDir(file.config, agent.id, file.stateDir, process.env) === workspace) {
      throw new AgentRosterError(`${workspace} is already agent "${agent.id}"'s workspace; agents sharing one would share its memory and persona: choose another directory.`);
    }
  }
}

/** Where a new agent would work without a `workspace` of its own: `<state>/workspace-<id>`, as the gateway resolves it for an agent that is not the default. */
export function proposedWorkspace(file: AgentsConfigFile, agentId: string): string {
  const entries = { ...(definesNoAgents(file) ? { main: { default: true } } : {}), ...file.config.agents?.entries, [agentId]: {} };
  return resolveWorkspaceDir({ agents: { ...file.config.agents, entries } }, agentId, file.stateDir, process.env);
}

/**
 * The new `agents.entries.<id>` with `fields`. A config without agents runs the implicit `main`;
 * an entry for the new agent alone would make it the only one, so `main` is written first,
 * marked default, and stays the default (`wroteImplicitMain`).
 */
export function addAgentEdit(file: AgentsConfigFile, agentId: string, fields: Record<string, unknown>): { edit: AgentsFileEdit; wroteImplicitMain: boolean } {
  const edit = new AgentsFileEdit(file);
  const wroteImplicitMain = definesNoAgents(file);
  if (wroteImplicitMain) edit.addAgent("main", { default: true });
  edit.addAgent(agentId, fields);
  return { edit, wroteImplicitMain };
}
