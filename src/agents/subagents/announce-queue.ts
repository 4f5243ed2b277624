import type { Logger } from "../../infra/logger.js";
import type { ConversationRun } from "../conversation-port.js";
import type { SubagentRegistry } from "./subagent-registry.js";
import { ANNOUNCE_RETRY_DELAYS_MS, type SubagentRunRecord } from "./types.js";

/**
 * One delivery attempt's outcome. `accepted`: the requester's session has the message durably
 * (a fresh `run`, or — after a restart — a key it had already accepted, `previous` telling how
 * that run ended). `transient` failures are retried; `permanent` ones are not.
 */
export type DeliveryResult =
  | { kind: "accepted"; run: ConversationRun }
  | { kind: "accepted"; previous: string }
  | { kind: "transient"; error: string }
  | { kind: "permanent"; error: string };

export interface AnnounceQueueDeps {
  registry: SubagentRegistry;
  deliver(record: SubagentRunRecord): Promise<DeliveryResult>;
  /** The announcement is in the requester's session. */
  onAccepted(record: SubagentRunRecord, result: Extract<DeliveryResult, { kind: "accepted" }>): void;
  /** It ended without reaching the requester (failed or expired). */
  onGaveUp(record: SubagentRunRecord): void;
  logger: Logger;
  now?: () => number;
}

/**
 * Push delivery of completion announcements: an attempt at once, transient failures retried after
 * 5, 10 and 20 s and then every 20 s until the announcement's deadline, permanent failures never
 * retried. Exactly once comes from the idempotency key each announcement carries: a retry — in this
 * process or after a restart — of a message the requester already accepted is recognised, not
 * delivered again.
 */
export class AnnounceQueue {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly attempting = new Set<string>();
  private readonly now: () => number;
  private stopped = false;

  constructor(private readonly deps: AnnounceQueueDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Try now (a new announcement) or at its recorded retry time (one restored after a restart). */
  schedule(record: SubagentRunRecord): void {
    const announce = record.announce;
    if (this.stopped || announce?.state !== "pending") return;
    clearTimeout(this.timers.get(record.runId));
    const delay = Math.max(0, (announce.nextAttemptAt ?? 0) - this.now());
    if (delay === 0) {
      this.timers.delete(record.runId);
      void this.attempt(record);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(record.runId);
      void this.attempt(record);
    }, delay);
    timer.unref();
    this.timers.set(record.runId, timer);
  }

  /** Stops retrying; pending announcements stay pending in the registry for the next start. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async attempt(record: SubagentRunRecord): Promise<void> {
    const announce = record.announce;
    if (this.stopped || announce?.state !== "pending" || this.attempting.has(record.runId)) return;
    const { registry, logger } = this.deps;
    if (this.now() >= announce.dueBy) return this.giveUp(record, "expired", announce.lastError ?? "not delivered before its deadline");
    this.attempting.add(record.runId);
    announce.attempts += 1;
    let result: DeliveryResult;
    try {
      result = await this.deps.deliver(record);
    } catch (err) {
      result = { kind: "transient", error: (err as Error).message };
    } finally {
      this.attempting.delete(record.runId);
    }
    if (this.stopped && result.kind === "transient") return;
    if (result.kind === "accepted") {
      announce.state = "accepted";
      delete announce.nextAttemptAt;
      delete announce.lastError;
      registry.changed();
      this.deps.onAccepted(record, result);
      return;
    }
    announce.lastError = result.error;
    if (result.kind === "permanent") return this.giveUp(record, "failed", result.error);
    const delay = ANNOUNCE_RETRY_DELAYS_MS[Math.min(announce.attempts, ANNOUNCE_RETRY_DELAYS_MS.length) - 1]!;
    if (this.now() + delay >= announce.dueBy) return this.giveUp(record, "expired", result.error);
    announce.nextAttemptAt = this.now() + delay;
    registry.changed();
    logger.warn(
      { runId: record.runId, target: announce.targetSessionKey, attempt: announce.attempts, retryInMs: delay, err: result.error },
      "sub-agent announcement not delivered; will retry",
    );
    this.schedule(record);
  }

  private giveUp(record: SubagentRunRecord, state: "failed" | "expired", error: string): void {
    const announce = record.announce!;
    announce.state = state;
    announce.lastError = error;
    announce.settledAt = this.now();
    delete announce.nextAttemptAt;
    this.deps.registry.changed();
    this.deps.logger.error({ runId: record.runId, target: announce.targetSessionKey, attempts: announce.attempts, err: error }, `sub-agent announcement ${state}`);
    this.deps.onGaveUp(record);
  }
}
