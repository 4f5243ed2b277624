import fs from "node:fs";
import path from "node:path";
import { listAgentConfigs, resolveAgentConfig } from "../../agents/agent-config.js";
import { absolutePath, resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { parseIdentityMarkdown, type MarkdownIdentity } from "../../agents/context/identity-markdown.js";
import { CliError, printJson } from "../output.js";
import { printable } from "../printable.js";
import { printGatewayNote, printWarnings, readAgentsConfigFile, runningGateway, saveConfigPatch } from "./agents-config-file.js";
import { existingAgentId, type AgentsConfigFile } from "../../agents/roster/agents-file.js";
import { AgentsFileEdit } from "../../agents/roster/agents-file-edit.js";

export interface SetIdentityFlags {
  agent?: string;
  workspace?: string;
  identityFile?: string;
  fromIdentity?: boolean;
  name?: string;
  emoji?: string;
  avatar?: string;
  theme?: string;
  json?: boolean;
}

type IdentityField = keyof MarkdownIdentity;
const FIELDS: readonly IdentityField[] = ["name", "emoji", "avatar"];
const LABELS: Record<IdentityField, string> = { name: "Name", emoji: "Emoji", avatar: "Avatar" };

// IDENTITY.md is a short text file; a bigger one is not what the flag means to read.
const MAX_IDENTITY_BYTES = 1024 * 1024;

/** The identity flags given, whitespace runs made single spaces; an empty one is refused (unsetting is `config unset`'s job). */
function flagIdentity(flags: SetIdentityFlags): MarkdownIdentity {
  if (flags.theme !== undefined) throw new CliError("--theme is not supported: agents.entries.<id>.identity has name, emoji and avatar here, no theme.");
  const identity: MarkdownIdentity = {};
  for (const field of FIELDS) {
    const value = flags[field]?.replace(/\s+/g, " ").trim();
    if (value === "") throw new CliError(`--${field} needs a value (to remove it: openclaw config unset agents.entries.<id>.identity.${field})`);
    if (value !== undefined) identity[field] = value;
  }
  return identity;
}

/** The one agent whose workspace is `dir`; none or several is refused (--agent then says which). */
function agentWorkingIn(file: AgentsConfigFile, dir: string): string {
  const ids = listAgentConfigs(file.config)
    .filter((agent) => resolveWorkspaceDir(file.config, agent.id, file.stateDir, process.env) === dir)
    .map((agent) => agent.id);
  if (ids.length === 0) throw new CliError(`No agent's workspace is ${dir}: pass --agent <id>.`);
  if (ids.length > 1) throw new CliError(`Agents ${ids.join(", ")} all work in ${dir}: pass --agent <id> to choose one.`);
  return ids[0]!;
}

function readIdentity(filePath: string): MarkdownIdentity {
  let text: string;
  try {
    if (fs.statSync(filePath).size > MAX_IDENTITY_BYTES) throw new CliError(`${filePath} is larger than 1 MiB: not an IDENTITY.md.`);
    text = fs.readFileSync(filePath, "utf8");
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${filePath}: ${(err as Error).message}`);
  }
  const identity = parseIdentityMarkdown(text);
  if (FIELDS.every((field) => identity[field] === undefined)) throw new CliError(`No identity in ${filePath}: it has no Name, Emoji or Avatar line with a value.`);
  return identity;
}

/**
 * `openclaw agents set-identity`: writes `agents.entries.<id>.identity` (name, emoji, avatar) from
 * the flags, from the workspace's IDENTITY.md (`--from-identity`, `--identity-file`, or when no
 * field flag is given), or both (the flags win). The agent is `--agent`, else the one whose
 * workspace is `--workspace`, the `--identity-file`'s folder or the current directory. Those two
 * only locate the identity: the agent's stored workspace is not changed.
 */
export function agentsSetIdentityCommand(flags: SetIdentityFlags): void {
  const fromFlags = flagIdentity(flags);
  const file = readAgentsConfigFile();
  const readsFile = flags.fromIdentity === true || flags.identityFile !== undefined || Object.keys(fromFlags).length === 0;
  let agentId = flags.agent === undefined ? undefined : existingAgentId(file, flags.agent);
  const identityFile = flags.identityFile?.trim() ? absolutePath(flags.identityFile, process.env) : undefined;
  let dir: string | undefined;
  if (identityFile) dir = path.dirname(identityFile);
  else if (flags.workspace?.trim()) dir = absolutePath(flags.workspace, process.env);
  else if (agentId && readsFile) dir = resolveWorkspaceDir(file.config, agentId, file.stateDir, process.env);
  else if (!agentId) dir = process.cwd();
  agentId ??= agentWorkingIn(file, dir!);

  const source = readsFile ? (identityFile ?? path.join(dir!, "IDENTITY.md")) : undefined;
  const wanted: MarkdownIdentity = { ...(source ? readIdentity(source) : {}), ...fromFlags };
  const current = (resolveAgentConfig(file.config, agentId)?.identity ?? {}) as MarkdownIdentity;
  const identity: MarkdownIdentity = { ...current, ...wanted };
  const storedWorkspace = resolveWorkspaceDir(file.config, agentId, file.stateDir, process.env);
  const changed = FIELDS.some((field) => wanted[field] !== undefined && wanted[field] !== current[field]);

  let warnings: string[] = [];
  if (changed) {
    const edit = new AgentsFileEdit(file);
    edit.setFields(agentId, { identity: wanted });
    warnings = saveConfigPatch(file, edit.toPatch());
  }
  const gateway = changed ? runningGateway(file) : "none";
  if (flags.json) {
    return printJson({
      agentId,
      identity,
      changed,
      workspace: dir ?? null,
      storedWorkspace,
      identityFile: source ?? null,
      ...(changed ? { runningGateway: gateway } : {}),
      warnings,
    });
  }
  const lines = [changed ? `Updated config: ${file.file}` : "Identity unchanged: the config already has it.", `Agent: ${agentId}`];
  for (const field of FIELDS) if (identity[field]) lines.push(`${LABELS[field]}: ${printable(identity[field]!)}`);
  lines.push(`Workspace: ${printable(storedWorkspace)}`);
  if (source && path.dirname(source) !== storedWorkspace) lines.push(`Identity read from: ${printable(source)} (the agent's workspace is not changed)`);
  process.stdout.write(`${lines.join("\n")}\n`);
  printGatewayNote(gateway);
  printWarnings(warnings);
}
