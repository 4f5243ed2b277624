import { TOOL_ERRORS } from "../tool-errors.js";
import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../../config/index.js";
import { resolveModel } from "../../models/index.js";
import { modelAllowed } from "../model-policy.js";
import { buildSubagentSessionKey, subagentDepth } from "../../sessions/keys/index.js";
import { normalizeAgentId } from "../agent-config.js";
import { resolveWorkspaceDir } from "../context/workspace.js";
import type { SessionsSpawnArgs, SessionToolCaller } from "../tools/index.js";
import { decodeAttachments, writeAttachments, type WrittenAttachment } from "./attachments.js";
import { checkSpawn, type SpawnRefusal, spawnText } from "./spawn-checks.js";
import { agentToAgentPolicy, configuredAgentIds, resolveSubagentSettings } from "./subagent-config.js";
import { subagentTaskMessage } from "./subagent-prompt.js";
import { childSandboxProblem } from "../sandbox/sandbox-explain.js";
import type { SubagentRunRecord } from "./types.js";

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max"];

export interface PreparedSpawn {
  record: SubagentRunRecord;
  /** The child's first message. */
  taskMessage: string;
  /** The attachments written into the child's workspace (removed again if the spawn fails later). */
  attachments: { workspaceDir: string; files: WrittenAttachment[] };
  /** Said back to the model, e.g. that an unknown model fell back to the agent's. */
  warnings: string[];
}

export interface PrepareSpawnDeps {
  config: OpenClawConfig;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  now: number;
  /** Unfinished children the caller has now. */
  activeChildren: number;
  /** The caller's own model when it is itself a sub-agent spawned with one (children inherit it). */
  inheritedModel?: string;
}

/**
 * Validates a `sessions_spawn` call and builds the child's record and first message. Nothing
 * is started here; attachments are the only thing written, and only once every check passed.
 */
export function prepareSpawn(caller: SessionToolCaller, args: SessionsSpawnArgs, deps: PrepareSpawnDeps): PreparedSpawn | SpawnRefusal {
  const { config } = deps;
  const acpOnly = (["cwd", "resumeSessionId", "streamTo"] as const).filter((k) => args[k] !== undefined);
  if (acpOnly.length > 0) return TOOL_ERRORS.acpOnlyOptions(acpOnly.join(", "));
  const text = spawnText(args);
  if (isRefusal(text)) return text;
  const { task, label } = text;

  const requesterAgentId = normalizeAgentId(caller.agentId);
  const settings = resolveSubagentSettings(config, requesterAgentId);
  const thinking = args.thinking?.trim().toLowerCase() || settings.thinking;
  if (thinking && !THINKING_LEVELS.includes(thinking)) return TOOL_ERRORS.thinkingInvalid(thinking, THINKING_LEVELS.join(", "));
  const targetAgentId = normalizeAgentId(args.agentId ?? requesterAgentId);
  const requesterDepth = subagentDepth(caller.sessionKey);
  const refusal = checkSpawn({
    requesterSessionKey: caller.sessionKey,
    requesterAgentId,
    requesterDepth,
    targetAgentId,
    activeChildren: deps.activeChildren,
    settings,
    knownAgents: configuredAgentIds(config),
    agentToAgent: agentToAgentPolicy(config),
    sandbox: args.sandbox ?? "inherit",
    // Sub-agent sessions are never their agent's main session: mode non-main or all sandboxes them.
    sandboxProblem: args.sandbox === "require" ? childSandboxProblem(config, targetAgentId, deps.env) : undefined,
  });
  if (refusal) return refusal;

  const warnings: string[] = [];
  let model = args.model?.trim() || settings.model || deps.inheritedModel;
  if (model) {
    const resolved = resolveModel(model, config, deps.env);
    if (!resolved.ok) {
      warnings.push(`model "${model}" cannot be used (${resolved.message}); the sub-agent runs on its agent's model instead.`);
      model = undefined;
    } else {
      // The child runs as the target agent, so that agent's model policy decides.
      const allowed = modelAllowed(config, targetAgentId, `${resolved.model.provider}/${resolved.model.id}`);
      if (!allowed.ok) return TOOL_ERRORS.spawnModelNotAllowed(allowed.message);
    }
  }

  const decoded = decodeAttachments(args.attachments ?? []);
  if (!Array.isArray(decoded)) return decoded;
  const runId = randomUUID();
  const workspaceDir = resolveWorkspaceDir(config, targetAgentId, deps.stateDir, deps.env);
  let written: ReturnType<typeof writeAttachments> = [];
  if (decoded.length > 0) {
    written = writeAttachments(workspaceDir, args.attachMountPath?.trim() || `attachments/${runId.slice(0, 8)}`, decoded);
    if (!Array.isArray(written)) return written;
  }

  const runTimeoutSeconds = args.runTimeoutSeconds ?? settings.runTimeoutSeconds;
  const record: SubagentRunRecord = {
    runId,
    childSessionKey: buildSubagentSessionKey(targetAgentId, caller.sessionKey, randomUUID()),
    requesterSessionKey: caller.sessionKey,
    agentId: targetAgentId,
    task,
    ...(label ? { label } : {}),
    cleanup: args.cleanup ?? "keep",
    // A thread is a conversation: a thread-bound child stays for the messages written there.
    spawnMode: args.mode ?? (args.thread ? "session" : "run"),
    ...(model ? { model } : {}),
    ...(thinking ? { thinking } : {}),
    ...(runTimeoutSeconds > 0 ? { runTimeoutSeconds } : {}),
    ...firstRoundFields(caller, args, runId, requesterDepth, deps.now),
  };
  return { record, taskMessage: subagentTaskMessage(task, written), attachments: { workspaceDir, files: written }, warnings };
}

/** What every new child's record starts with, whatever runs it: its first round is open. */
export function firstRoundFields(caller: SessionToolCaller, args: SessionsSpawnArgs, runId: string, requesterDepth: number, now: number) {
  return {
    expectsCompletionMessage: args.expectsCompletionMessage ?? true,
    senderIsOwner: caller.senderIsOwner,
    depth: requesterDepth + 1,
    createdAt: now,
    accumulatedRuntimeMs: 0,
    runs: { total: 0, ok: 0, failed: 0 },
    currentRunId: runId,
    round: 1,
    roundOpen: true,
    roundStartedAt: now,
    steerCount: 0,
  };
}

export function isRefusal(value: object): value is SpawnRefusal {
  return typeof (value as SpawnRefusal).code === "string" && typeof (value as SpawnRefusal).message === "string";
}
