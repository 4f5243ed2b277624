import type { Logger } from "../infra/logger.js";
import type { CompletionStatus, IdempotencyLedger } from "../sessions/idempotency/index.js";
import type { WithdrawalReason } from "../sessions/store/index.js";
import type { RunResult } from "../agents/types.js";
import type { RunEventSink } from "./run-event-bridge.js";
import type { RunRecord, RunRegistry, RunStatus } from "./run-registry.js";
import { wasCutByShutdown } from "./shutdown-endings.js";

export interface RunEndingsDeps {
  runs: RunRegistry;
  ledger: IdempotencyLedger;
  sink: RunEventSink;
  logger: Logger;
  /** The run's waiting event listener is no longer needed. */
  forgetListener(runId: string): void;
  /** Takes the messages of runs that never started out of the conversation (HistoryCache.withdraw). */
  withdrawMessages?(sessionKey: string, runIds: string[], reason: WithdrawalReason): Promise<void>;
}

/** How runs end: the registry, the idempotency ledger and, for runs that never started, their terminal events. */
export class RunEndings {
  constructor(private readonly deps: RunEndingsDeps) {}

  /** Mark runs ended in the registry and the ledger (a duplicate of their key is answered from it). */
  finish(runIds: string[], status: Exclude<RunStatus, "queued" | "running">, result?: RunRecord["result"], errorMessage?: string): void {
    const summary =
      result?.payloads
        .map((p) => p.text)
        .join("\n")
        .slice(0, 500) || errorMessage;
    for (const id of runIds) {
      this.deps.forgetListener(id);
      this.deps.runs.finish(id, status, result);
      try {
        this.deps.ledger.complete(id, { status: ledgerStatus(status, result), ...(summary ? { summary } : {}) });
      } catch (err) {
        this.deps.logger.warn({ runId: id, err: (err as Error).message }, "idempotency ledger not updated");
      }
    }
  }

  /**
   * End runs that never started (dropped, aborted while queued, left waiting when the gateway
   * stopped) with the events a started run would end with; an error's message is also what
   * `agent.wait` reports. Their messages never reached the model: they are withdrawn from the
   * conversation, unless `neverWritten` says they were not written in the first place.
   */
  endUnstarted(sessionKey: string, runIds: string[], state: "aborted" | "error", message: string, options: { neverWritten?: boolean; byShutdown?: boolean } = {}): void {
    const pending = runIds.filter((id) => {
      const run = this.deps.runs.get(id);
      return run && !run.endedAt;
    });
    for (const id of pending) {
      const run = this.deps.runs.get(id)!;
      this.deps.sink.agent({
        runId: id,
        seq: 1,
        stream: "lifecycle",
        ts: Date.now(),
        sessionKey,
        agentId: run.agentId,
        data: state === "aborted" ? { phase: "end", aborted: true } : { phase: "error", error: message },
      });
      this.deps.sink.chat({ runId: id, sessionKey, agentId: run.agentId, seq: 1, state, ...(state === "error" ? { errorMessage: message } : { stopReason: "rpc" }) });
    }
    if (state === "aborted") this.finish(pending, "aborted", undefined, message);
    else for (const id of pending) this.finish([id], "error", noReplyError(id, message, options.byShutdown ? "shutdown" : "unknown"), message);
    if (!options.neverWritten) this.withdraw(sessionKey, pending, state === "aborted" ? "aborted" : "dropped");
  }

  private withdraw(sessionKey: string, runIds: string[], reason: WithdrawalReason): void {
    if (!this.deps.withdrawMessages || runIds.length === 0) return;
    const warn = (err: unknown) => this.deps.logger.warn({ sessionKey, runIds, err: (err as Error).message }, "withdrawn messages not marked in the transcript");
    try {
      this.deps.withdrawMessages(sessionKey, runIds, reason).catch(warn);
    } catch (err) {
      warn(err);
    }
  }
}

/** How the idempotency ledger remembers a run: one the gateway's stop cut is `interrupted`, as after a crash. */
function ledgerStatus(status: RunStatus, result: RunRecord["result"]): CompletionStatus {
  if (status === "ok") return "ok";
  if (status !== "aborted") return "error";
  return wasCutByShutdown(result) ? "interrupted" : "aborted";
}

/** The result of a run that failed without a reply (it never started, or its turn crashed): no usage. */
export function noReplyError(runId: string, message: string, kind: "unknown" | "shutdown" = "unknown"): RunResult {
  return {
    runId,
    payloads: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    durationMs: 0,
    stopReason: "error",
    error: { kind, message },
    messages: [],
  };
}
