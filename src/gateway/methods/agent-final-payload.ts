import type { ConversationRun } from "../../agents/conversation-port.js";

export interface AgentFinalPayload {
  runId: string;
  status: "ok" | "timeout" | "error";
  summary: string;
  result: { payloads: { text: string }[]; meta: Record<string, unknown> };
}

/**
 * The final response of the `agent` method for a finished run; `openclaw agent --local` prints
 * the same shape, so scripts read one JSON for both paths.
 */
export function agentFinalPayload(run: ConversationRun): AgentFinalPayload {
  const result = run.result;
  const payloads = (result?.payloads ?? []).map((p) => ({ text: p.text }));
  return {
    runId: run.runId,
    status: run.status === "ok" ? "ok" : run.status === "timeout" ? "timeout" : "error",
    summary: payloads.map((p) => p.text).join("\n\n") || result?.error?.message || run.status,
    result: {
      payloads,
      meta: {
        durationMs: result?.durationMs ?? (run.endedAt ?? Date.now()) - (run.startedAt ?? run.acceptedAt),
        stopReason: result?.stopReason ?? run.status,
        agentMeta: { agentId: run.agentId, sessionKey: run.sessionKey, ...(result?.model ? { model: result.model } : {}), usage: result?.usage },
        ...(result?.error ? { error: result.error } : {}),
      },
    },
  };
}
