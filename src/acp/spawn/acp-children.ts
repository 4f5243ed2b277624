import path from "node:path";
import type { AcpChildPort, AcpChildPrepareInput, AcpChildPrepared, AcpChildRun, AcpChildRunResult, SpawnRefusal } from "../../agents/subagents/index.js";
import { defuseMarkers } from "../../agents/subagents/announce-format.js";
import type { Logger } from "../../infra/logger.js";
import { pickAgent, type AcpSettings } from "../config.js";
import type { AcpSessionManager, AcpTurnResult } from "../control-plane/manager.js";
import type { AcpRuntimeEvent } from "../runtime/types.js";
import { TOOL_ERRORS } from "../../agents/tool-errors.js";
import { buildAgentEnv } from "../stdio/agent-env.js";
import { findCommand, whyCommandIsMissing } from "../stdio/command-lookup.js";
import { ProgressRelay } from "./progress-relay.js";
import { traceAcpTurn } from "./acp-child-trace.js";
import type { RunTracer } from "../../traces/index.js";

export interface AcpChildrenDeps {
  manager: AcpSessionManager;
  settings: () => AcpSettings;
  logger: Logger;
  /** Shows a line of a child's progress to its requester (streamTo: "parent"). */
  relayProgress?: (requesterSessionKey: string, childSessionKey: string, text: string) => Promise<void>;
  /** Records each child turn as a trace (source `acp`). */
  tracer?: RunTracer;
}

/**
 * ACP children of sub-agent spawns: the port the sub-agent service runs them through. The task
 * reaches the agent as plain text: gateway-internal context markers in it are defused first,
 * so nothing can pass for the gateway's own framing inside the harness.
 */
export class AcpChildren implements AcpChildPort {
  constructor(private readonly deps: AcpChildrenDeps) {}

  prepare(input: AcpChildPrepareInput): AcpChildPrepared | SpawnRefusal {
    const settings = this.deps.settings();
    const picked = pickAgent(settings, input.agentId);
    if (!picked.ok) return picked.refusal;
    const cwd = input.cwd ? path.resolve(input.workspaceDir, input.cwd) : input.workspaceDir;
    const missing = missingCommand(picked.agent, settings, cwd);
    if (missing) return missing;
    try {
      const record = this.deps.manager.createSession({
        agent: picked.agent,
        mode: input.persistent ? "persistent" : "oneshot",
        cwd,
        ...(input.resumeSessionId ? { resumeSessionId: input.resumeSessionId } : {}),
        ...(input.label ? { label: input.label } : {}),
        requesterSessionKey: input.requesterSessionKey,
      });
      return { sessionKey: record.sessionKey, agent: picked.agent, cwd };
    } catch (err) {
      return TOOL_ERRORS.acpSessionFailed((err as Error).message);
    }
  }

  run(input: { sessionKey: string; text: string; mode: "prompt" | "steer"; streamToParent?: string; timeoutSeconds?: number }): AcpChildRun {
    const { relayProgress } = this.deps;
    const { stream } = this.deps.settings();
    // `deliveryMode: final_only`: the requester gets the child's result only, no progress while it works.
    const relay =
      input.streamToParent && relayProgress && stream.deliveryMode === "live"
        ? new ProgressRelay(stream, (text) => relayProgress(input.streamToParent!, input.sessionKey, text))
        : undefined;
    const text = defuseMarkers(input.text);
    const trace = traceAcpTurn(this.deps.tracer, input.sessionKey, text);
    const onEvent =
      relay || trace
        ? (event: AcpRuntimeEvent) => {
            relay?.push(event);
            trace?.event(event);
          }
        : undefined;
    const done = this.deps.manager
      .runTurn({
        sessionKey: input.sessionKey,
        text,
        mode: input.mode,
        ...(onEvent ? { onEvent } : {}),
        ...(input.timeoutSeconds ? { timeout: { seconds: input.timeoutSeconds, setting: "agents.defaults.subagents.runTimeoutSeconds" } } : {}),
      })
      // Its progress is out before its result is announced.
      .then(async (result) => {
        await relay?.flush();
        const child = childResult(result);
        trace?.end(child);
        return child;
      })
      .catch((err: Error): AcpChildRunResult => {
        const child: AcpChildRunResult = { status: "error", text: "", error: err.message, durationMs: 0 };
        trace?.end(child);
        return child;
      });
    return { done };
  }

  close(sessionKey: string, reason: string): void {
    void this.deps.manager.close(sessionKey, reason).catch((err: Error) => this.deps.logger.warn({ sessionKey, err: err.message }, "acp session did not close cleanly"));
  }
}

/** A spawn whose agent cannot start at all is refused at once, with the install hint. */
function missingCommand(agent: string, settings: AcpSettings, cwd: string): SpawnRefusal | undefined {
  const command = settings.agents[agent]!;
  const env = buildAgentEnv(process.env, command.env);
  if (findCommand(command.command, env, cwd)) return undefined;
  return TOOL_ERRORS.acpCommandNotFound(agent, whyCommandIsMissing(command.command, cwd), command.installHint);
}

function childResult(result: AcpTurnResult): AcpChildRunResult {
  const usage = result.usage ? { input: result.usage.inputTokens ?? 0, output: result.usage.outputTokens ?? 0 } : undefined;
  const base = { text: result.text, durationMs: result.durationMs, ...(usage ? { usage } : {}) };
  if (result.ok) return { status: result.stopReason === "cancelled" ? "aborted" : "ok", ...base };
  const status = result.error?.code === "ACP_TIMEOUT" ? "timeout" : result.error?.code === "ACP_SESSION_CLOSED" ? "aborted" : "error";
  return { status, ...base, ...(result.error ? { error: result.error.message } : {}) };
}
