import type { ToolCallOutline, TraceOutcome, TraceSummary } from "./types.js";

export type AuditKind = "agent_run" | "tool_action";
export type AuditStatus = "started" | "succeeded" | "failed" | "cancelled" | "timed_out" | "blocked";

/**
 * One activity record in OpenClaw's audit shape, read from a run trace: metadata only (who, which
 * run, which tool, how it ended), never the messages, arguments or results.
 */
export interface AuditEvent {
  schemaVersion: 1;
  eventId: string;
  occurredAt: number;
  kind: AuditKind;
  action: "agent.run.started" | "agent.run.finished" | "tool.action.started" | "tool.action.finished";
  status: AuditStatus;
  errorCode?: string;
  actor: { type: "agent"; id: string };
  agentId: string;
  sessionKey: string;
  runId: string;
  toolCallId?: string;
  toolName?: string;
  redaction: "metadata_only";
}

/** What the audit records of one run are made from. */
export type AuditedRun = Pick<TraceSummary, "runId" | "sessionKey" | "agentId" | "startedAt" | "durationMs" | "outcome"> & { toolCalls: readonly ToolCallOutline[] };

const RUN_ENDINGS: Record<TraceOutcome, { status: AuditStatus; errorCode?: string }> = {
  ok: { status: "succeeded" },
  error: { status: "failed", errorCode: "run_failed" },
  aborted: { status: "cancelled", errorCode: "run_cancelled" },
  timeout: { status: "timed_out", errorCode: "run_timed_out" },
};

function toolEnding(call: ToolCallOutline): { status: AuditStatus; errorCode?: string } {
  if (call.decision !== "allowed") return { status: "blocked", errorCode: "tool_blocked" };
  return call.isError ? { status: "failed", errorCode: "tool_failed" } : { status: "succeeded" };
}

/** A run's start, each of its tool calls' start and (when it had one) end, and the run's end: in the order they happened. */
export function auditEventsOfRun(run: AuditedRun): AuditEvent[] {
  const base = {
    schemaVersion: 1 as const,
    actor: { type: "agent" as const, id: run.agentId },
    agentId: run.agentId,
    sessionKey: run.sessionKey,
    runId: run.runId,
    redaction: "metadata_only" as const,
  };
  const events: AuditEvent[] = [{ ...base, eventId: `${run.runId}:run:started`, occurredAt: run.startedAt, kind: "agent_run", action: "agent.run.started", status: "started" }];
  for (const call of run.toolCalls) {
    const tool = { ...base, kind: "tool_action" as const, toolCallId: call.id, toolName: call.name };
    events.push({ ...tool, eventId: `${run.runId}:tool:${call.id}:started`, occurredAt: call.startedAt, action: "tool.action.started", status: "started" });
    if (call.durationMs !== undefined || call.decision !== "allowed") {
      events.push({
        ...tool,
        eventId: `${run.runId}:tool:${call.id}:finished`,
        occurredAt: call.startedAt + (call.durationMs ?? 0),
        action: "tool.action.finished",
        ...toolEnding(call),
      });
    }
  }
  events.push({
    ...base,
    eventId: `${run.runId}:run:finished`,
    occurredAt: run.startedAt + run.durationMs,
    kind: "agent_run",
    action: "agent.run.finished",
    ...RUN_ENDINGS[run.outcome],
  });
  return events;
}
