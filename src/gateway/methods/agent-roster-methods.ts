import fs from "node:fs";
import { Type } from "@sinclair/typebox";
import { findAgentEntry } from "../../agents/agent-config.js";
import type { MarkdownIdentity } from "../../agents/context/identity-markdown.js";
import { absolutePath, ensureWorkspace, resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { addAgentEdit, newAgentId, proposedWorkspace, refuseSharedWorkspace } from "../../agents/roster/agent-add-plan.js";
import { planAgentDelete } from "../../agents/roster/agent-delete-plan.js";
import { AgentRosterError, existingAgentId, readAgentsConfigFileAt, type AgentsConfigFile, type ConfigFilePatch } from "../../agents/roster/agents-file.js";
import { AgentsFileEdit } from "../../agents/roster/agents-file-edit.js";
import { planIdentityFileUpdate } from "../../agents/roster/identity-file-update.js";
import { loadConfig, patchConfigFile } from "../../config/index.js";
import { resolveModelTarget } from "../../models/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import { configEditFailed, configEditOptions, configEditWritten } from "./config-edit-commit.js";
import type { MethodRegistry } from "./registry.js";

const NonEmpty = Type.String({ minLength: 1, maxLength: 4096 });

const Create = Type.Object(
  { name: NonEmpty, workspace: Type.Optional(NonEmpty), model: Type.Optional(NonEmpty), emoji: Type.Optional(Type.String()), avatar: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

const Update = Type.Object(
  {
    agentId: NonEmpty,
    name: Type.Optional(NonEmpty),
    workspace: Type.Optional(NonEmpty),
    model: Type.Optional(Type.Union([NonEmpty, Type.Null()])),
    agentRuntime: Type.Optional(NonEmpty),
    emoji: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const Delete = Type.Object({ agentId: NonEmpty, deleteFiles: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

/** The config file as written and as loaded from disk now (not the running config: the file is what the edit rewrites, and it may hold changes not yet reloaded). */
function readRosterFile(runtime: GatewayRuntime): AgentsConfigFile {
  const file = runtime.configFilePath();
  try {
    const { config } = loadConfig({ stateDir: runtime.stateDir, env: process.env, path: fs.existsSync(file) ? file : null });
    return readAgentsConfigFileAt(runtime.stateDir, file, config);
  } catch (err) {
    configEditFailed(err);
  }
}

/** A roster refusal as the wire shows it; anything else passes through. */
function refused<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof AgentRosterError) throw invalidRequest(err.message);
    throw err;
  }
}

/** Writes the patch as `config.patch` does (validated, against the hash read, refused if the gateway could not start on it) and applies it at once; `dryRun` only checks it. */
function savePatch(runtime: GatewayRuntime, file: AgentsConfigFile, { patch, replacePaths }: ConfigFilePatch, dryRun = false): void {
  let result: ReturnType<typeof patchConfigFile>;
  try {
    result = patchConfigFile(file.file, JSON.stringify(patch), { ...configEditOptions(runtime, file.baseHash), replacePaths, dryRun });
  } catch (err) {
    configEditFailed(err);
  }
  if (!dryRun) configEditWritten(runtime, result);
}

/** The canonical model ref `raw` names (an alias, `provider/model`, or an id one provider lists); one that cannot be resolved is refused with the reason. */
function modelRef(raw: string, file: AgentsConfigFile): string {
  const resolved = resolveModelTarget(raw, file.config);
  if (!resolved.ok) throw invalidRequest(`model: ${resolved.message}`);
  return resolved.target.ref;
}

/** A workspace given over the wire: absolute or `~/…` (the gateway's working directory means nothing to its caller). */
function workspacePath(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed.startsWith("/") && !trimmed.startsWith("~")) throw invalidRequest(`workspace "${trimmed}" is relative: give an absolute path (or one starting with ~/).`);
  return absolutePath(trimmed, process.env);
}

/** Creates (and seeds with the default bootstrap files) the workspace; a failure writes nothing. */
async function seedWorkspace(workspace: string): Promise<void> {
  try {
    await ensureWorkspace(workspace);
  } catch (err) {
    throw invalidRequest(`cannot create the workspace ${workspace}: ${(err as Error).message}. Config was not changed.`);
  }
}

/** `emoji` and `avatar` given with a value, for `identity`; blank ones are no identity field. */
function identityFields(params: { emoji?: string; avatar?: string }): Record<string, string> {
  const identity: Record<string, string> = {};
  for (const field of ["emoji", "avatar"] as const) {
    const value = params[field]?.replace(/\s+/g, " ").trim();
    if (value) identity[field] = value;
  }
  return identity;
}

/**
 * What an update leaves the agent called, for its IDENTITY.md: the name, emoji and avatar given,
 * else the ones the config has; undefined when the update changes none of them and moves no
 * workspace, or nothing is known.
 */
function identityAfterUpdate(
  file: AgentsConfigFile,
  agentId: string,
  params: { name?: string; workspace?: string },
  identity: Record<string, string>,
): MarkdownIdentity | undefined {
  if (params.name === undefined && params.workspace === undefined && Object.keys(identity).length === 0) return undefined;
  const entry = findAgentEntry(file.config, agentId);
  const known: MarkdownIdentity = {
    name: params.name?.trim() ?? entry?.identity?.name ?? entry?.name,
    emoji: identity.emoji ?? entry?.identity?.emoji,
    avatar: identity.avatar ?? entry?.identity?.avatar,
  };
  return Object.values(known).some((value) => value?.trim()) ? known : undefined;
}

/**
 * `agents.create|update|delete`: the agent roster edited over the protocol with the rules of
 * `openclaw agents add` / `agents delete` (src/agents/roster), written through `config.patch`'s
 * writer and applied at once by the config reload. See docs/protocol.md.
 */
export function registerAgentRosterMethods(registry: MethodRegistry): void {
  registry.register({
    name: "agents.create",
    scope: "operator.admin",
    params: Create,
    handler: async (params, { runtime }) => {
      const file = readRosterFile(runtime);
      const name = params.name.trim();
      const { agentId, workspace, model, edit } = refused(() => {
        const agentId = newAgentId(file, name);
        const model = params.model === undefined ? undefined : modelRef(params.model, file);
        const workspace = params.workspace === undefined ? proposedWorkspace(file, agentId) : workspacePath(params.workspace);
        refuseSharedWorkspace(file, workspace);
        const identity = identityFields(params);
        const fields = { ...(name !== agentId ? { name } : {}), workspace, ...(model ? { model } : {}), ...(Object.keys(identity).length > 0 ? { identity } : {}) };
        return { agentId, workspace, model, edit: addAgentEdit(file, agentId, fields).edit };
      });
      savePatch(runtime, file, edit.toPatch(), true);
      await seedWorkspace(workspace);
      savePatch(runtime, file, edit.toPatch());
      return { ok: true, agentId, name, workspace, ...(model ? { model } : {}) };
    },
  });

  registry.register({
    name: "agents.update",
    scope: "operator.admin",
    params: Update,
    handler: async (params, { runtime }) => {
      if (params.agentRuntime !== undefined)
        throw invalidRequest("not supported: agentRuntime: this gateway runs every model on its own runtime and has no per-agent runtime choice; send model alone.");
      const file = readRosterFile(runtime);
      const identity = identityFields(params);
      for (const field of ["emoji", "avatar"] as const) {
        if (params[field] !== undefined && identity[field] === undefined)
          throw invalidRequest(`${field} is blank: give a value (to remove it, config.patch agents.entries.<id>.identity.${field} with null).`);
      }
      const { agentId, workspace, edit } = refused(() => {
        const agentId = existingAgentId(file, params.agentId);
        const workspace = params.workspace === undefined ? undefined : workspacePath(params.workspace);
        if (workspace) refuseSharedWorkspace(file, workspace, agentId);
        const fields: Record<string, unknown> = {
          ...(params.name !== undefined ? { name: params.name.trim() } : {}),
          ...(workspace ? { workspace } : {}),
          ...(params.model === null ? { model: null } : params.model !== undefined ? { model: modelRef(params.model, file) } : {}),
          ...(Object.keys(identity).length > 0 ? { identity } : {}),
        };
        if (Object.keys(fields).length === 0) throw invalidRequest("nothing to update: give name, workspace, model, emoji or avatar.");
        const edit = new AgentsFileEdit(file);
        edit.setFields(agentId, fields);
        return { agentId, workspace, edit };
      });
      savePatch(runtime, file, edit.toPatch(), true);
      if (workspace) await seedWorkspace(workspace);
      // IDENTITY.md (in the workspace the agent has after the update) says what the config now says.
      const fileIdentity = identityAfterUpdate(file, agentId, params, identity);
      const identityFile = fileIdentity && refused(() => planIdentityFileUpdate(workspace ?? resolveWorkspaceDir(file.config, agentId, runtime.stateDir), fileIdentity));
      const identityWritten = identityFile?.write() ?? false;
      try {
        savePatch(runtime, file, edit.toPatch());
      } catch (err) {
        if (identityWritten) identityFile?.undo();
        throw err;
      }
      return { ok: true, agentId };
    },
  });

  registry.register({
    name: "agents.delete",
    scope: "operator.admin",
    params: Delete,
    handler: (params, { runtime }) => {
      if (params.deleteFiles === true)
        throw invalidRequest(
          "not supported: deleteFiles: true: this gateway never deletes or trashes an agent's workspace, sessions or memory; delete with deleteFiles false (or omitted) and remove the files yourself.",
        );
      const file = readRosterFile(runtime);
      const { agentId, plan } = refused(() => {
        const agentId = existingAgentId(file, params.agentId);
        return { agentId, plan: planAgentDelete(file, agentId) };
      });
      savePatch(runtime, file, plan.edit.toPatch());
      return { ok: true, agentId, removedBindings: plan.removedBindings.length };
    },
  });
}
