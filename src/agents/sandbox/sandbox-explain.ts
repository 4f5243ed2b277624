import type { OpenClawConfig } from "../../config/index.js";
import { summarizeElevated, type ElevatedSummary } from "./elevated-summary.js";
import { INSTALL_HINTS } from "./sandbox-backends.js";
import { decideSandbox } from "./sandbox-settings.js";
import { prepareTurnSandbox } from "./turn-sandbox.js";

/** What a run of an agent in a session would get, for `openclaw sandbox explain`. */
export interface SandboxExplanation {
  agentId: string;
  sessionKey: string;
  sandboxed: boolean;
  reason: string;
  mode: string;
  scope: string;
  workspaceAccess: string;
  network: string;
  backend?: string;
  backendInstalled?: boolean;
  installHint?: string;
  dockerImage?: string;
  /** The directory exec sees (the agent's workspace or its sandbox copy), and whether it may write there. */
  workspace: string;
  writable: boolean;
  withheldTools: readonly string[];
  /** Why they are withheld (a read-only workspace, no sandbox browser). */
  withheldReason?: string;
  /** Who may make a sandboxed session's exec run on the host (`tools.elevated`). */
  elevated: ElevatedSummary;
}

export function explainSandbox(input: {
  config: OpenClawConfig;
  agentId: string;
  sessionKey: string;
  workspaceDir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
}): SandboxExplanation {
  const turn = prepareTurnSandbox(input, { createCopy: false });
  const { settings } = turn.decision;
  const base = {
    agentId: input.agentId,
    sessionKey: input.sessionKey,
    sandboxed: turn.decision.sandboxed,
    reason: turn.decision.reason,
    mode: settings.mode,
    scope: settings.scope,
    workspaceAccess: settings.workspaceAccess,
    network: settings.network,
    elevated: summarizeElevated(input.config, input.agentId),
  };
  if (!turn.sandbox) return { ...base, workspace: input.workspaceDir, writable: true, withheldTools: [] };
  const sandbox = turn.sandbox;
  return {
    ...base,
    backend: sandbox.backend,
    backendInstalled: sandbox.available,
    ...(sandbox.available ? {} : { installHint: INSTALL_HINTS[sandbox.backend] }),
    ...(sandbox.backend === "docker" ? { dockerImage: settings.dockerImage } : {}),
    workspace: turn.workspaceDir,
    writable: sandbox.writable,
    withheldTools: turn.withheld?.tools ?? [],
    ...(turn.withheld ? { withheldReason: turn.withheld.reason } : {}),
  };
}

/** Why a sub-agent of `agentId` would not run sandboxed, or undefined when it would (`sessions_spawn` with `sandbox: "require"`). */
export function childSandboxProblem(config: OpenClawConfig, agentId: string, env: NodeJS.ProcessEnv): string | undefined {
  const decision = decideSandbox(config, agentId, undefined);
  if (!decision.sandboxed) return `agent "${agentId}" runs without a sandbox (${decision.reason})`;
  const turn = prepareTurnSandbox({ config, agentId, sessionKey: undefined, workspaceDir: "", stateDir: "", env }, { createCopy: false });
  if (turn.sandbox && !turn.sandbox.available) return `the sandbox backend "${turn.sandbox.backend}" is not installed (${INSTALL_HINTS[turn.sandbox.backend]})`;
  return undefined;
}
