import type { TaskEnd, TaskStart } from "../../tasks/index.js";
import type { SubagentOutcome, SubagentRunRecord } from "./types.js";

/** A spawn's task in the ledger: runtime `acp` for an ACP child, else `subagent`, keyed by the spawn's run id. */
export function subagentTaskStart(record: SubagentRunRecord): TaskStart {
  return {
    runtime: record.runtime === "acp" ? "acp" : "subagent",
    runId: record.runId,
    agentId: record.agentId,
    task: record.task,
    requesterSessionKey: record.requesterSessionKey,
    childSessionKey: record.childSessionKey,
    ...(record.label ? { label: record.label } : {}),
  };
}

/** How a round's outcome reads in the ledger: a kill is `cancelled`, a reset or deleted session `failed`. */
export function subagentTaskEnd(outcome: SubagentOutcome, error: string | undefined, resultText: string): TaskEnd {
  switch (outcome) {
    case "ok":
      return { status: "succeeded", ...(resultText.trim() ? { summary: resultText.trim() } : {}) };
    case "timeout":
      return { status: "timed_out", error: error ?? "timed out" };
    case "killed":
      return { status: "cancelled", error: "the sub-agent was killed" };
    case "reset":
      return { status: "failed", error: "the child's session was reset" };
    case "deleted":
      return { status: "failed", error: "the child's session was deleted" };
    default:
      return { status: "failed", error: error ?? "the run failed" };
  }
}
