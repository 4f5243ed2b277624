import type { TaskLedgerChange } from "../tasks/index.js";
import { taskSummary } from "./task-summary.js";

/**
 * The `task` event's payload for a ledger change: `upserted` carries the task as `tasks.get` shows
 * it (without its text), `deleted` the removed task's id, `restored` tells clients to list again.
 */
export function taskEventPayload(change: TaskLedgerChange): Record<string, unknown> {
  switch (change.kind) {
    case "upserted":
      return { action: "upserted", task: taskSummary(change.task) };
    case "deleted":
      return { action: "deleted", taskId: change.taskId };
    case "restored":
      return { action: "restored" };
  }
}
