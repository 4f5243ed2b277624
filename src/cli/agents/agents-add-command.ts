import { normalizeAgentId } from "../../agents/agent-config.js";
import { absolutePath, ensureWorkspace } from "../../agents/context/workspace.js";
import { addAgentEdit, newAgentId, newAgentIdProblem, proposedWorkspace, refuseSharedWorkspace } from "../../agents/roster/agent-add-plan.js";
import { rawBindings, type AgentsConfigFile } from "../../agents/roster/agents-file.js";
import { addRouteBindings, type AddedBindings } from "../../agents/roster/binding-edits.js";
import { modelTargetOrFail } from "../models-config-file.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { printGatewayNote, printWarnings, readAgentsConfigFile, runningGateway, saveConfigPatch } from "./agents-config-file.js";
import { askText, canAsk } from "../ask.js";
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

/** OpenClaw's flags this gateway has no counterpart for: refused, never ignored. */
function refuseUnsupported(flags: AgentsAddFlags): void {
  if (flags.role !== undefined)
    throw new CliError("--role is not supported: this gateway has no role templates. Add the agent with --workspace and write its AGENTS.md and SOUL.md there.");
  if (flags.agentDir !== undefined)
    throw new CliError(
      "--agent-dir is not supported: an agent's sessions and model keys are always under <state dir>/agents/<id> here (agents.entries.<id>.agentDir does not exist).",
    );
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
      validate: (value) => newAgentIdProblem(file, normalizeAgentId(value)),
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

  const { edit, wroteImplicitMain } = addAgentEdit(file, agentId, { ...(given.name !== agentId ? { name: given.name } : {}), workspace, ...(model ? { model: model.ref } : {}) });
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
