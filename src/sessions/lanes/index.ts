/**
 * Session lanes and the per-session inbox (see docs/sessions.md).
 *
 * One `LaneScheduler` serves the whole gateway (keyed by session key); each session gets its own
 * `SessionInbox` built from `messages.queue`. A caller combines them like this:
 *
 * 1. Inbound message for session K: if the lane is idle and the inbox is empty
 *    (`!scheduler.isActive(K) && scheduler.queuedCount(K) === 0 && inbox.pendingCount() === 0`),
 *    enqueue a run for it. Otherwise `inbox.offer(message, runningTurnSettings)` (the settings of
 *    the turn that runs, so a message with other settings is not steered into it) and act on the result:
 *    `steered` / `queued`: nothing to do now; `interrupt`: `scheduler.abortActive(K)`;
 *    `rejected`: send `result.notice` to the user. Drops and summaries also reach the inbox's
 *    `notify` callback; deliver those to the user too. (Checking the inbox as well keeps a new
 *    message from overtaking a `collect` batch whose quiet window is still open.)
 * 2. During a run in `steer` mode, at each model boundary: `inbox.takeSteering()` and append
 *    those messages as user messages before the next model call.
 * 3. When the run ends, still inside the lane task so nothing can slip in between: call
 *    `inbox.nextTurn()` (it also moves unused steering to the followup queue) and, if it returns a
 *    turn, enqueue a run for `turn.mergedText`; it queues behind the finishing task. In `collect`
 *    mode the batch may still be settling: if `pendingCount() > 0`, `await inbox.whenReady()`
 *    and try `nextTurn()` again.
 *
 * ```ts
 * function startRun(text: string): void {
 *   void scheduler.enqueue(key, async (signal) => {
 *     try { await runAgent(text, signal, () => inbox.takeSteering()); }
 *     finally { scheduleNext(); }
 *   });
 * }
 * function scheduleNext(): void {
 *   const turn = inbox.nextTurn();
 *   if (turn) startRun(turn.mergedText);
 *   else if (inbox.pendingCount() > 0) void inbox.whenReady().then(scheduleNext);
 * }
 * ```
 */
export { LaneScheduler, type EnqueueOptions, type LanePool, type LaneSchedulerOptions, type LaneTask } from "./lane-scheduler.js";
export { LaneAbortedError, LaneDrainingError } from "./lane-errors.js";
export {
  createSessionInbox,
  DEFAULT_DEBOUNCE_MS,
  DEFAULT_DROP_POLICY,
  DEFAULT_QUEUE_CAP,
  MAX_SUMMARY_LINES,
} from "./inbound-queue.js";
export type * from "./inbound-types.js";
export { SUMMARY_CHARS } from "./turn-text.js";
export { sameTurnSettings } from "./turn-settings-equality.js";
