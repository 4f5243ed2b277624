import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { ExecSandbox } from "./exec-sandbox.js";
import { decideSandbox, ensureSandboxWorkspace, sandboxWorkspaceDir, type SandboxDecision } from "./sandbox-settings.js";

/** Tools that act on the host whatever the sandbox lists allow: no sandboxed run gets them (there is no sandbox browser here). */
export const HOST_ONLY_TOOLS: readonly string[] = ["browser"];

/** Tools that write files in the workspace: a read-only sandbox workspace (`workspaceAccess: ro`) does not offer them. */
export const WRITING_FILE_TOOLS: readonly string[] = ["write", "edit", "apply_patch", "image_generate", "tts"];

export interface TurnSandbox {
  decision: SandboxDecision;
  /** The sandbox exec runs in; undefined when the run is not sandboxed. */
  sandbox?: ExecSandbox;
  /** The workspace the run's tools use: the agent's, or its sandbox copy (`workspaceAccess: none`). */
  workspaceDir: string;
  /** Tools a sandboxed run does not get beyond the policy's sandbox layer, with the reason. */
  withheld: { tools: readonly string[]; reason: string } | undefined;
}

/**
 * The sandbox of one run of `agentId` in `sessionKey`: whether it is sandboxed, in which
 * directory its tools work (a sandbox copy is created here, once), and what `exec` runs in.
 * `createCopy: false` only computes (for `openclaw sandbox explain`).
 */
export function prepareTurnSandbox(
  input: { config: OpenClawConfig; agentId: string; sessionKey: string | undefined; workspaceDir: string; stateDir: string; env: NodeJS.ProcessEnv },
  options: { createCopy?: boolean } = {},
): TurnSandbox {
  const decision = decideSandbox(input.config, input.agentId, input.sessionKey);
  if (!decision.sandboxed) return { decision, workspaceDir: input.workspaceDir, withheld: undefined };
  const { settings } = decision;
  let workspaceDir = input.workspaceDir;
  if (settings.workspaceAccess === "none") {
    const copy = sandboxWorkspaceDir(input.stateDir, settings, input.agentId, input.sessionKey);
    workspaceDir = options.createCopy === false ? copy : ensureSandboxWorkspace(input.workspaceDir, copy);
  }
  const writable = settings.workspaceAccess !== "ro";
  return {
    decision,
    sandbox: new ExecSandbox(settings, workspaceDir, writable, input.env, path.resolve(input.stateDir)),
    workspaceDir,
    withheld: writable
      ? { tools: HOST_ONLY_TOOLS, reason: "no sandbox browser is supported here" }
      : { tools: [...WRITING_FILE_TOOLS, ...HOST_ONLY_TOOLS], reason: "sandbox.workspaceAccess is ro; no sandbox browser is supported here" },
  };
}
