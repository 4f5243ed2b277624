import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import { isMainSessionKey, isSubagentSessionKey, SessionKeyError } from "../../sessions/keys/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import type { AgentConversations, ConversationRun } from "../conversation-port.js";
import { buildTaskCompletionEvent, renderTaskCompletion, taskLabel } from "./announce-format.js";
import { AnnounceQueue, type DeliveryResult } from "./announce-queue.js";
import type { SubagentRegistry } from "./subagent-registry.js";
import { ANNOUNCE_HARD_EXPIRY_MS, ANNOUNCE_SOFT_EXPIRY_MS, type SubagentOutcome, type SubagentRunRecord } from "./types.js";

export interface AnnouncementRoundDeps {
  config: () => OpenClawConfig;
  store: SessionStore;
  conversations: AgentConversations;
  registry: SubagentRegistry;
  logger: Logger;
  now: () => number;
  /** True once the service stopped: a turn ended by the shutdown is not counted as an answer. */
  stopped(): boolean;
  /** An announcement was accepted into `sessionKey` as `run` (channels deliver its reply to the chat). */
  onAccepted?: (sessionKey: string, run: ConversationRun) => void;
  /** The requester's turn that answered an announcement ended: a nested requester counts it as its own run. */
  onAnswerRunEnded(requesterSessionKey: string, run: ConversationRun): void;
  /** The announcement is done with (answered, suppressed, failed, expired). */
  onSettled(record: SubagentRunRecord): void;
}

/**
 * A finished round's announcement: opened when the round completes, delivered into the
 * requester's session as an internal turn (retried by `AnnounceQueue`, exactly once by key),
 * asked again when a restart cut the answering turn short, and marked answered when the
 * requester's turn that answers it ends.
 */
export class AnnouncementRound {
  private readonly queue: AnnounceQueue;

  constructor(private readonly deps: AnnouncementRoundDeps) {
    this.queue = new AnnounceQueue({
      registry: deps.registry,
      deliver: (record) => this.deliver(record),
      onAccepted: (record, result) => this.onAccepted(record, result),
      onGaveUp: (record) => deps.onSettled(record),
      logger: deps.logger,
      now: deps.now,
    });
  }

  /**
   * The round of `record` completed with `outcome`: record its announcement (suppressed when
   * there is nothing to say or the requester stopped it) and start delivering it.
   */
  open(record: SubagentRunRecord, round: { outcome: SubagentOutcome; reason: string; resultText: string; endedAt: number }): void {
    const now = round.endedAt;
    const key = `announce:${record.runId}:${record.round}`;
    const suppressed = record.suppressReason ?? (!record.expectsCompletionMessage && round.outcome === "ok" && !round.resultText ? "no result to report" : undefined);
    const dueBy = now + (record.expectsCompletionMessage ? ANNOUNCE_HARD_EXPIRY_MS : ANNOUNCE_SOFT_EXPIRY_MS);
    record.announce = { round: record.round, key, state: suppressed ? "suppressed" : "pending", targetSessionKey: record.requesterSessionKey, attempts: 0, createdAt: now, dueBy };
    if (suppressed) {
      record.announce.settledAt = now;
      record.announce.lastError = suppressed;
    }
    this.deps.registry.changed();
    this.deps.logger.info(
      { runId: record.runId, child: record.childSessionKey, outcome: round.outcome, reason: round.reason, announce: record.announce.state },
      "sub-agent round ended",
    );
    if (suppressed) this.deps.onSettled(record);
    else this.queue.schedule(record);
  }

  /** Deliver (again) an announcement the last process left pending. */
  resume(record: SubagentRunRecord): void {
    this.queue.schedule(record);
  }

  stop(): void {
    this.queue.stop();
  }

  private async deliver(record: SubagentRunRecord): Promise<DeliveryResult> {
    const { deps } = this;
    const announce = record.announce!;
    // A nested requester whose session is gone: the result goes to its own requester.
    while (!deps.store.get(announce.targetSessionKey)) {
      const gone = deps.registry.forChild(announce.targetSessionKey);
      if (gone) announce.targetSessionKey = gone.requesterSessionKey;
      else if (isMainSessionKey(announce.targetSessionKey, deps.config().session.mainKey)) break;
      else return { kind: "permanent", error: `the requester session ${announce.targetSessionKey} no longer exists` };
    }
    const target = announce.targetSessionKey;
    const full = Buffer.byteLength(record.frozenResultText ?? "", "utf8") < (record.frozenResultBytes ?? 0);
    const resultText = full
      ? `${record.frozenResultText}\n\n[Cut: the whole result is ${record.frozenResultBytes} bytes; the gateway kept it in ${record.frozenResultFile}.]`
      : (record.frozenResultText ?? "");
    const event = buildTaskCompletionEvent({
      record,
      outcome: record.outcome ?? "error",
      error: record.lastError,
      resultText,
      stats: { runs: record.runs, durationMs: record.accumulatedRuntimeMs, tokens: record.tokens ?? { input: 0, output: 0 } },
      nested: isSubagentSessionKey(target),
    });
    try {
      const outcome = await deps.conversations.submit({
        sessionKey: target,
        idempotencyKey: announce.key,
        message: renderTaskCompletion(event),
        method: "agent",
        internal: { mergeable: true },
        provenance: { kind: "internal_system", sourceSessionKey: record.childSessionKey, originSessionId: record.childSessionId, sourceTool: "subagent_announce" },
        transcriptFields: { internalEvents: [event] },
        senderIsOwner: record.senderIsOwner,
      });
      switch (outcome.kind) {
        case "accepted":
          return { kind: "accepted", run: outcome.run };
        case "duplicate":
          return outcome.run ? { kind: "accepted", run: outcome.run } : { kind: "accepted", previous: outcome.status };
        case "rejected":
          return { kind: "transient", error: outcome.notice };
      }
    } catch (err) {
      if (err instanceof SessionKeyError) return { kind: "permanent", error: err.message };
      return { kind: "transient", error: (err as Error).message };
    }
  }

  private onAccepted(record: SubagentRunRecord, result: Extract<DeliveryResult, { kind: "accepted" }>): void {
    const target = record.announce!.targetSessionKey;
    if ("run" in result) {
      this.deps.onAccepted?.(target, result.run);
      this.whenAnswered(record, target, result.run);
      return;
    }
    // The requester's turn died with the last process (or was aborted by its shutdown).
    if (result.previous === "interrupted" || result.previous === "in_flight" || result.previous === "aborted") void this.askAgain(record);
    else this.markAnswered(record);
  }

  /** The requester accepted the announcement before a restart, but its turn never finished: ask it to answer now, once. */
  private async askAgain(record: SubagentRunRecord): Promise<void> {
    const announce = record.announce!;
    announce.resumed = true;
    try {
      const outcome = await this.deps.conversations.submit({
        sessionKey: announce.targetSessionKey,
        idempotencyKey: `${announce.key}:resume`,
        message: `[Gateway restart] A restart cut your turn short before you answered the sub-agent result for "${taskLabel(record)}" above. Answer it now.`,
        method: "agent",
        internal: { mergeable: true },
        provenance: { kind: "internal_system", sourceSessionKey: record.childSessionKey, sourceTool: "subagent_announce" },
        senderIsOwner: record.senderIsOwner,
      });
      const run = outcome.kind === "accepted" ? outcome.run : outcome.kind === "duplicate" ? outcome.run : undefined;
      if (run) {
        this.deps.onAccepted?.(announce.targetSessionKey, run);
        this.whenAnswered(record, announce.targetSessionKey, run);
        return;
      }
    } catch (err) {
      this.deps.logger.warn({ runId: record.runId, err: (err as Error).message }, "could not ask the requester to answer a sub-agent result again");
    }
    this.markAnswered(record);
  }

  /**
   * The requester's turn that answers the announcement ended. A nested requester counts it as
   * one of its own runs first, so that when the answer lets it settle, its stats include it.
   */
  private whenAnswered(record: SubagentRunRecord, target: string, run: ConversationRun): void {
    // A session-mode child steered right away may have a newer round's announcement by then: only this one is answered.
    const round = record.announce?.round;
    void run.done.then((ended) => {
      // A turn ended by the shutdown stays "accepted": the next start asks the requester again.
      if (this.deps.stopped()) return;
      this.deps.onAnswerRunEnded(target, ended);
      this.markAnswered(record, round);
    });
  }

  private markAnswered(record: SubagentRunRecord, round?: number): void {
    const announce = record.announce;
    if (!announce || announce.state === "answered" || (round !== undefined && announce.round !== round)) return;
    announce.state = "answered";
    announce.settledAt = this.deps.now();
    this.deps.registry.changed();
    this.deps.onSettled(record);
  }
}
