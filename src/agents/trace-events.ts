import type { AttemptReport } from "../models/failover/index.js";
import type { ExecGateReport } from "./approvals/policy-gate.js";
import type { AgentEvent, HistoryMessage, ToolHooks } from "./types.js";

/**
 * The events a run's trace needs that the loop does not emit: the turn around the loop reports
 * them on the same stream (docs/traces.md). A subscriber's failure never reaches the run.
 */
export function traceEmitter(emit: ((event: AgentEvent) => void) | undefined) {
  const send = (event: AgentEvent): void => {
    if (!emit) return;
    try {
      emit(event);
    } catch {
      // A subscriber's bug must not break the run.
    }
  };
  return {
    context(systemPrompt: string, promptVersion: string, model: string, tools: string[]): void {
      send({ type: "run_context", systemPrompt, promptVersion, model, tools });
    },
    history(messages: readonly HistoryMessage[]): void {
      send({ type: "run_history", messages });
    },
    attempt(report: AttemptReport): void {
      if (report.ok) send({ type: "model_attempt", ref: report.ref, profileId: report.profileId, ok: true });
      else
        send({ type: "model_attempt", ref: report.ref, ...(report.profileId ? { profileId: report.profileId } : {}), ok: false, reason: report.reason, message: report.message });
    },
    approval(report: ExecGateReport): void {
      send({ type: "exec_approval", ...report });
    },
    /** The hook, reporting the calls it blocks or stops the run at. */
    observeDecisions(hook: ToolHooks): ToolHooks {
      const before = hook.beforeToolCall;
      if (!before || !emit) return hook;
      return {
        ...hook,
        beforeToolCall: async (call) => {
          const decision = await before.call(hook, call);
          if (decision.action !== "run") send({ type: "tool_decision", toolCallId: call.id, toolName: call.name, action: decision.action, reason: decision.reason });
          return decision;
        },
      };
    },
  };
}
