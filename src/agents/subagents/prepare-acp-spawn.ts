import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../../config/index.js";
import { subagentDepth } from "../../sessions/keys/index.js";
import { normalizeAgentId } from "../agent-config.js";
import type { SessionsSpawnArgs, SessionToolCaller } from "../tools/index.js";
import type { AcpChildPort } from "./acp-child-port.js";
import { firstRoundFields, isRefusal } from "./prepare-spawn.js";
import { checkSpawn, type SpawnRefusal, spawnText } from "./spawn-checks.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { agentToAgentPolicy, resolveSubagentSettings } from "./subagent-config.js";
import { decideSandbox } from "../sandbox/sandbox-settings.js";
import type { SubagentRunRecord } from "./types.js";

/**
 * Validates a `sessions_spawn` with `runtime: "acp"` and builds the child's record. ACP agents
 * run on the host, so a sandbox cannot be required, nor a sandboxed session spawn one; options that only mean something to the
 * embedded runtime (model, thinking, attachments, a per-call timeout, a forked context) are refused
 * rather than silently dropped. The ACP session is recorded (durably) by the port.
 */
export function prepareAcpSpawn(
  caller: SessionToolCaller,
  args: SessionsSpawnArgs,
  deps: { acp: AcpChildPort | undefined; config: OpenClawConfig; now: number; activeChildren: number },
): { record: SubagentRunRecord; task: string } | SpawnRefusal {
  if (!deps.acp) return TOOL_ERRORS.acpRuntimeUnavailable();
  if (args.sandbox === "require") return TOOL_ERRORS.acpSandboxRequired();
  // A sandboxed session must not reach the host through an agent that runs there.
  const sandbox = decideSandbox(deps.config, caller.agentId, caller.sessionKey);
  if (sandbox.sandboxed) return TOOL_ERRORS.acpFromSandboxedSession(sandbox.reason);
  const unsupported = (["model", "thinking", "attachments", "runTimeoutSeconds", "attachMountPath"] as const).filter((k) => args[k] !== undefined);
  if (args.context === "fork") return TOOL_ERRORS.acpForkUnsupported();
  if (unsupported.length > 0) return TOOL_ERRORS.acpEmbeddedOnlyOptions(unsupported.join(", "));
  const text = spawnText(args);
  if (isRefusal(text)) return text;
  const { task, label } = text;

  const requesterAgentId = normalizeAgentId(caller.agentId);
  const settings = resolveSubagentSettings(deps.config, requesterAgentId);
  const requesterDepth = subagentDepth(caller.sessionKey);
  // Depth and the number of unfinished children are limited like any child; which ACP agents
  // may be used is acp.allowedAgents' business (checked by the port).
  const limits = checkSpawn({
    requesterSessionKey: caller.sessionKey,
    requesterAgentId,
    requesterDepth,
    targetAgentId: requesterAgentId,
    activeChildren: deps.activeChildren,
    settings,
    knownAgents: [requesterAgentId],
    agentToAgent: agentToAgentPolicy(deps.config),
    sandbox: "inherit",
    sandboxProblem: undefined,
  });
  if (limits) return limits;

  // A thread is a conversation: a thread-bound child stays (a persistent ACP session) for the messages written there.
  const spawnMode = args.mode ?? (args.thread ? "session" : "run");
  const prepared = deps.acp.prepare({
    requesterSessionKey: caller.sessionKey,
    ...(args.agentId ? { agentId: args.agentId } : {}),
    ...(args.cwd ? { cwd: args.cwd } : {}),
    workspaceDir: caller.workspaceDir,
    persistent: spawnMode === "session",
    ...(args.resumeSessionId ? { resumeSessionId: args.resumeSessionId } : {}),
    ...(label ? { label } : {}),
  });
  if ("code" in prepared) return prepared;
  const runId = randomUUID();
  const record: SubagentRunRecord = {
    runId,
    childSessionKey: prepared.sessionKey,
    requesterSessionKey: caller.sessionKey,
    agentId: prepared.agent,
    task,
    ...(label ? { label } : {}),
    cleanup: args.cleanup ?? "keep",
    spawnMode,
    runtime: "acp",
    acp: { agent: prepared.agent, cwd: prepared.cwd, streamToParent: args.streamTo === "parent" },
    // Each of its turns is limited like an embedded child's; acpx timeoutSeconds bounds only its start.
    ...(settings.runTimeoutSeconds > 0 ? { runTimeoutSeconds: settings.runTimeoutSeconds } : {}),
    ...firstRoundFields(caller, args, runId, requesterDepth, deps.now),
  };
  return { record, task };
}
