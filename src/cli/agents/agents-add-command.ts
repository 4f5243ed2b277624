import { listAgentConfigs, normalizeAgentId } from "../../agents/agent-config.js";
import { absolutePath, ensureWorkspace, resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { AGENT_ID_DESCRIPTION, AGENT_ID_PATTERN } from "../../config/index.js";
import { modelTargetOrFail } from "../models-config-file.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import {
  agentIds,
  definesNoAgents,
  printGatewayNote,
  printWarnings,
  rawBindings,
  readAgentsConfigFile,
  runningGateway,
  saveConfigPatch,
  type AgentsConfigFile,
} from "./agents-config-file.js";
import { AgentsFileEdit } from "./agents-file-edit.js";
import { askText, canAsk } from "../ask.js";
import { addRouteBindings, type AddedBindings } from "./binding-edits.js";
import { parseBindSpecs, unconfiguredChannelNotes } from "./bind-specs.js";
import { bindingsSummary, printBindingChanges } from "./binding-report.js";

export interface AgentsAddFlags {
  workspace?: string;
  model?: string;
  bind?: string[];
  nonInteractive?: boolean;
  json?: boolean;
  role?: string;
  agentDir?: string;
}

const agentIdPattern = new RegExp(AGENT_ID_PATTERN);

/** OpenClaw's flags this gateway has no counterpart for: refused, never ignored. */
function refuseUnsupported(flags: AgentsAddFlags): void {
  if (flags.role !== undefined)
    throw new CliError("--role is not supported: this gateway has no role templates. Add the agent with --workspace and write its AGENTS.md and SOUL.md there.");
  if (flags.agentDir !== undefined)
    throw new CliError(
      "--agent-dir is not supported: an agent's sessions and model keys are always under <state dir>/agents/<id> here (agents.entries.<id>.agentDir does not exist).",
    );
}

/** The id a name gives, as the config normalizes agent ids (trimmed, lower-case); one it would refuse, or one already there, is refused. */
function newAgentId(file: AgentsConfigFile, name: string): string {
  const id = normalizeAgentId(name);
  if (!agentIdPattern.test(id)) throw new CliError(`"${name}" is not a valid agent id: it must be ${AGENT_ID_DESCRIPTION}.`);
  if (agentIds(file).includes(id)) throw new CliError(`Agent "${id}" already exists.`);
  return id;
}

/**
 * Agents that shared one workspace would share its MEMORY.md, persona and files: a workspace
 * another agent already uses is refused.
 */
function refuseSharedWorkspace(file: AgentsConfigFile, workspace: string): void {
  for (const agent of listAgentConfigs(file.config)) {
    if (resolveWorkspaceDir(file.config, agent.id, file.stateDir, process.env) === workspace) {
      throw new CliError(`${workspace} is already agent "${agent.id}"'s workspace; agents sharing one would share its memory and persona: choose another directory.`);
    }
  }
}

/** Where the new agent would work without a `workspace` of its own: `<state>/workspace-<id>`, as the gateway resolves it for an agent that is not the default. */
function proposedWorkspace(file: AgentsConfigFile, agentId: string): string {
  const entries = { ...(definesNoAgents(file) ? { main: { default: true } } : {}), ...file.config.agents?.entries, [agentId]: {} };
  return resolveWorkspaceDir({ agents: { ...file.config.agents, entries } }, agentId, file.stateDir, process.env);
}

/** The name and workspace: from the command line, or asked on a terminal when no automation flag was given. Undefined when the user cancelled. */
async function nameAndWorkspace(file: AgentsConfigFile, nameArg: string | undefined, flags: AgentsAddFlags): Promise<{ name: string; workspace: string } | undefined> {
  const name = nameArg?.trim() || undefined;
  const workspace = flags.workspace?.trim() || undefined;
  const automation = flags.nonInteractive === true || flags.workspace !== undefined || flags.model !== undefined || (flags.bind?.length ?? 0) > 0;
  if (name && workspace) return { name, workspace };
  if (automation || !canAsk()) {
    const missing = [...(name ? [] : ["a name"]), ...(workspace ? [] : ["--workspace <dir>"])].join(" and ");
    const why = automation ? "without asking (--non-interactive, --workspace, --model or --bind given)" : "without a terminal to ask on";
    throw new CliError(`agents add needs ${missing} ${why}: openclaw agents add <name> --workspace <dir>`);
  }
  const json = flags.json === true;
  const asked =
    name ??
    (await askText("Agent name", {
      json,
      validate: (value) => {
        const id = normalizeAgentId(value);
        if (!agentIdPattern.test(id)) return `an agent id: ${AGENT_ID_DESCRIPTION}`;
        return agentIds(file).includes(id) ? `agent "${id}" already exists` : undefined;
      },
    }));
  if (asked === undefined) return undefined;
  const id = normalizeAgentId(asked);
  const dir = await askText("Workspace directory", {
    json,
    initialValue: proposedWorkspace(file, id),
    validate: (value) => (value.trim() ? undefined : "a directory"),
  });
  return dir === undefined ? undefined : { name: asked, workspace: dir };
}

/**
 * `openclaw agents add [name] --workspace <dir> [--model <ref>] [--bind <channel[:accountId]>]...`:
 * a new `agents.entries.<id>` with its workspace (created and seeded with the default bootstrap
 * files, as the gateway seeds one at first use) and its route bindings, in one validated write.
 * Nothing is created or written when anything is refused.
 */
export async function agentsAddCommand(nameArg: string | undefined, flags: AgentsAddFlags): Promise<void> {
  refuseUnsupported(flags);
  const file = readAgentsConfigFile();
  const given = await nameAndWorkspace(file, nameArg, flags);
  if (!given) return void process.stdout.write("Cancelled; nothing was changed.\n");
  const agentId = newAgentId(file, given.name);
  const model = flags.model !== undefined ? modelTargetOrFail(flags.model, file.config) : undefined;
  const workspace = absolutePath(given.workspace, process.env);
  refuseSharedWorkspace(file, workspace);
  const wanted = parseBindSpecs(flags.bind ?? [], agentId);

  const edit = new AgentsFileEdit(file);
  // A config without agents runs the implicit `main`; an entry for the new agent alone would make it the only one. `main` is written first, marked default, so it stays.
  const wroteImplicitMain = definesNoAgents(file);
  if (wroteImplicitMain) edit.addAgent("main", { default: true });
  edit.addAgent(agentId, { ...(given.name !== agentId ? { name: given.name } : {}), workspace, ...(model ? { model: model.ref } : {}) });
  const bindings: AddedBindings = wanted.length > 0 ? addRouteBindings(rawBindings(file), agentId, wanted) : { bindings: [], added: [], updated: [], skipped: [], conflicts: [] };
  if (bindings.added.length > 0 || bindings.updated.length > 0) edit.setBindings(bindings.bindings);

  saveConfigPatch(file, edit.toPatch(), { dryRun: true });
  let seeded: string[];
  try {
    seeded = (await ensureWorkspace(workspace)).created;
  } catch (err) {
    throw new CliError(`cannot create the workspace ${workspace}: ${(err as Error).message}\nConfig was not changed.`);
  }
  const warnings = [
    ...(model?.warning ? [model.warning] : []),
    ...unconfiguredChannelNotes(file.config, [...bindings.added, ...bindings.updated]),
    ...saveConfigPatch(file, edit.toPatch()),
  ];
  const gateway = runningGateway(file);

  if (flags.json) {
    return printJson({
      agentId,
      name: given.name,
      workspace,
      seededFiles: seeded,
      ...(model ? { model: model.ref } : {}),
      bindings: bindingsSummary(bindings),
      ...(wroteImplicitMain ? { wroteImplicitMain: true } : {}),
      runningGateway: gateway,
      warnings,
    });
  }
  const lines = [`Updated config: ${file.file}`];
  if (wroteImplicitMain) lines.push("The implicit default agent is now written as agents.entries.main (default: true), so it stays the default.");
  lines.push(`Agent: ${agentId}`);
  if (given.name !== agentId) lines.push(`Name: ${printable(given.name)}`);
  lines.push(`Workspace: ${printable(workspace)}${seeded.length > 0 ? ` (seeded ${seeded.join(", ")})` : ""}`);
  if (model) lines.push(`Model: ${model.ref}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  printBindingChanges(bindings, { quietWhenNone: true });
  printGatewayNote(gateway);
  printWarnings(warnings);
}
