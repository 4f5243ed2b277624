import type { ConversationRun, RunStatus } from "../../src/agents/conversation-port.js";

/** How a test may end a manual run. */
export type ManualEnd = Exclude<RunStatus, "queued" | "running">;

/** A run that a test (or a fake conversation service) ends by hand. */
export interface ManualRun extends ConversationRun {
  /** Ends the run with `text` as its reply; only the first call counts. */
  finish(status: ManualEnd, text?: string): void;
}

/**
 * A run started now and running until `finish(status, text)`: that sets its status and end time,
 * the result `result(status, text)` builds, calls `onEnd`, then settles `done`.
 */
export function manualRun(
  fields: Pick<ConversationRun, "runId" | "sessionKey" | "agentId">,
  result: (status: ManualEnd, text: string) => NonNullable<ConversationRun["result"]>,
  onEnd?: (status: ManualEnd, text: string) => void,
): ManualRun {
  let resolve!: (run: ConversationRun) => void;
  const run: ManualRun = {
    ...fields,
    status: "running",
    acceptedAt: Date.now(),
    startedAt: Date.now(),
    done: new Promise((r) => (resolve = r)),
    finish: (status, text = "") => {
      if (run.endedAt) return;
      run.status = status;
      run.endedAt = Date.now();
      run.result = result(status, text);
      onEnd?.(status, text);
      resolve(run);
    },
  };
  return run;
}
