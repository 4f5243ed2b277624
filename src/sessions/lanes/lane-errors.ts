/**
 * Errors a lane hands back instead of running a task. Each one names the lane key so the
 * caller can tell the right user that their turn did not run (nothing is dropped silently).
 */

/** The caller's abort signal fired while the task was still queued; the task never ran. */
export class LaneAbortedError extends Error {
  override readonly name = "LaneAbortedError";

  constructor(
    readonly key: string,
    reason?: unknown,
  ) {
    super(`Lane "${key}": task was aborted before it started`, { cause: reason });
  }
}

/** The scheduler is draining (shutdown or restart) and no longer accepts new tasks. */
export class LaneDrainingError extends Error {
  override readonly name = "LaneDrainingError";

  constructor(readonly key: string) {
    super(`Lane "${key}": scheduler is draining and accepts no new tasks`);
  }
}
