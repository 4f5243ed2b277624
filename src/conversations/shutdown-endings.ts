import type { RunResult } from "../agents/types.js";

/** Why a message whose turn had not started when the gateway stopped ends: nothing runs it after the restart. */
export const NOT_ANSWERED_AT_SHUTDOWN = "the gateway shut down before this message was answered; send it again once the gateway is back";

/** Why a message whose turn was running when the gateway stopped ends: the turn was cut, and nothing resumes it. */
export const CUT_BY_SHUTDOWN = "the gateway shut down while this message was being answered; send it again once the gateway is back";

/** The abort reason of runs the gateway's stop cuts, told apart from a user's stop. */
export class GatewayStoppingError extends Error {
  constructor() {
    super("gateway stopping");
    this.name = "GatewayStoppingError";
  }
}

/**
 * The result of a turn the gateway's stop aborted: still `aborted` (as OpenClaw ends it, with
 * `stopReason: "restart"` on the wire), with an error of kind `shutdown` that tells the sender to
 * send the message again.
 */
export function cutByShutdown<T extends RunResult>(result: T): T {
  return { ...result, stopReason: "aborted", error: { kind: "shutdown", message: CUT_BY_SHUTDOWN } };
}

/** True for the result of a turn the gateway's stop cut. */
export function wasCutByShutdown(result: Pick<RunResult, "stopReason" | "error"> | undefined): boolean {
  return result?.stopReason === "aborted" && result.error?.kind === "shutdown";
}
