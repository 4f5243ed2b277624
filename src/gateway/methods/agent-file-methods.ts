import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { defaultAgentId, resolveAgentConfig } from "../../agents/agent-config.js";
import { BOOTSTRAP_FILE_ORDER } from "../../agents/context/bootstrap-files.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";

/** The workspace files an operator may read and edit: the bootstrap files, under their preferred names. */
const EDITABLE_FILES = BOOTSTRAP_FILE_ORDER.map((spellings) => spellings[0]!);
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const AgentId = Type.String({ minLength: 1, maxLength: 128 });
const Sha256 = Type.String({ pattern: "^[a-f0-9]{64}$" });

function workspaceOf(runtime: GatewayRuntime, requested: string): { agentId: string; workspace: string } {
  const config = runtime.config();
  const agentId = requested.toLowerCase();
  if (!resolveAgentConfig(config, agentId) && agentId !== defaultAgentId(config)) throw invalidRequest(`unknown agent "${agentId}"`);
  return { agentId, workspace: resolveWorkspaceDir(config, agentId, runtime.stateDir, process.env) };
}

function editableName(name: string): string {
  const match = EDITABLE_FILES.find((f) => f.toLowerCase() === name.toLowerCase());
  if (!match) throw invalidRequest(`"${name}" is not an editable agent file; choose one of: ${EDITABLE_FILES.join(", ")}`);
  return match;
}

function fileEntry(workspace: string, name: string, withContent: boolean): Record<string, unknown> {
  const file = path.join(workspace, name);
  let content: Buffer;
  try {
    content = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { name, path: file, missing: true };
    throw invalidRequest(`cannot read ${file}: ${(err as Error).message}`);
  }
  const stat = fs.statSync(file);
  return {
    name,
    path: file,
    missing: false,
    size: stat.size,
    updatedAtMs: Math.floor(stat.mtimeMs),
    hash: createHash("sha256").update(content).digest("hex"),
    ...(withContent ? { content: content.toString("utf8") } : {}),
  };
}

/** `agents.files.list|get|set`: an agent's bootstrap files (AGENTS.md, SOUL.md, …) in its workspace. */
export function registerAgentFileMethods(registry: MethodRegistry): void {
  registry.register({
    name: "agents.files.list",
    scope: "operator.read",
    params: Type.Object({ agentId: AgentId }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const { agentId, workspace } = workspaceOf(runtime, params.agentId);
      return { agentId, workspace, files: EDITABLE_FILES.map((name) => fileEntry(workspace, name, false)) };
    },
  });

  registry.register({
    name: "agents.files.get",
    scope: "operator.read",
    params: Type.Object({ agentId: AgentId, name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const { agentId, workspace } = workspaceOf(runtime, params.agentId);
      return { agentId, workspace, file: fileEntry(workspace, editableName(params.name), true) };
    },
  });

  registry.register({
    name: "agents.files.set",
    scope: "operator.admin",
    params: Type.Object(
      { agentId: AgentId, name: Type.String({ minLength: 1, maxLength: 64 }), content: Type.String(), expectedHash: Type.Optional(Sha256) },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const { agentId, workspace } = workspaceOf(runtime, params.agentId);
      const name = editableName(params.name);
      if (Buffer.byteLength(params.content) > MAX_FILE_BYTES) throw invalidRequest(`${name} would be larger than ${MAX_FILE_BYTES} bytes`);
      const current = fileEntry(workspace, name, false);
      // A stale editor must not overwrite what someone else saved meanwhile.
      if (params.expectedHash !== undefined && current.hash !== params.expectedHash) {
        throw invalidRequest(`${name} changed since it was read (expectedHash does not match); read it again and retry`);
      }
      fs.mkdirSync(workspace, { recursive: true });
      writeFileAtomicSync(path.join(workspace, name), params.content, 0o644);
      return { ok: true, agentId, workspace, file: fileEntry(workspace, name, false) };
    },
  });
}
