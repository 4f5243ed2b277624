import type { HistoryMessage, RunResult } from "../types.js";

/** What the user reads when a turn still overflows after compaction; the session is kept. */
export const OVERFLOW_ADVICE =
  "This conversation no longer fits the model's context window, even after compacting it. Try again, send /compact to summarize the history now, or /new to start a fresh session.";

/**
 * The loop's `recoverOverflow` for a turn whose history comes from the session: compact, then
 * load the history again. The session's transcript already holds the messages this run
 * appended (they are the newest); the loop keeps its own copies after the prompt, so they are
 * taken off the reloaded history's end. Returns undefined (no retry) when nothing was compacted
 * or the history does not end with those messages.
 */
export function overflowRecovery(compact: () => Promise<boolean>, reload: () => readonly HistoryMessage[]) {
  return async (runMessages: number): Promise<readonly HistoryMessage[] | undefined> => {
    if (!(await compact())) return undefined;
    const history = reload();
    if (runMessages === 0) return history;
    const kept = history.length - runMessages;
    if (kept < 0 || history.slice(kept).some((m) => m.role === "user")) return undefined;
    return history.slice(0, kept);
  };
}

/** A run that ended on a context overflow tells the user what to do next, in its reply. */
export function withOverflowAdvice<R extends RunResult>(result: R): R {
  if (result.error?.kind !== "context_length") return result;
  return { ...result, payloads: [{ text: OVERFLOW_ADVICE }], error: { kind: "context_length", message: `${OVERFLOW_ADVICE} (${result.error.message})` } };
}
