import type { OpenClawConfig } from "../config/index.js";
import type { InternalHookSink } from "../hooks/internal/types.js";
import type { Logger } from "../infra/logger.js";
import { agentModelRef, resolveAgentConfig } from "../agents/agent-config.js";
import { compactSession } from "../agents/compaction/compact-session.js";
import type { AgentEvent, StreamModelFn } from "../agents/types.js";
import { buildCandidateChain, type ModelFailover } from "../models/failover/index.js";
import { resolveModel } from "../models/index.js";
import {
  compactionInput,
  compactionThresholds,
  resolveCompactionSettings,
  type CompactionInput,
  type CompactionReason,
  type CompactionResult,
} from "../sessions/compaction/index.js";
import { parseSessionKey } from "../sessions/keys/index.js";
import type { SessionStore } from "../sessions/store/index.js";

export interface SessionCompactorDeps {
  store: SessionStore;
  config: () => OpenClawConfig;
  streamModel: StreamModelFn;
  /** Keys and cooldowns, as for the turns: the summary's key comes from where a turn's would. */
  failover: ModelFailover;
  logger: Logger;
  /** The session's cached history as compaction input; undefined when not cached (the transcript is read then). */
  cachedInput: (sessionKey: string) => CompactionInput | undefined;
  /** A compaction was appended: bring the cached history up to date (or drop it). */
  applied: (sessionKey: string, firstKeptEntryId: string, summary: string) => void;
  onSessionChanged: (sessionKey: string, reason: string) => void;
  /** `compaction.notifyUser`: tell the session's clients an automatic compaction happened. */
  notify: (sessionKey: string, text: string) => void;
  /** Internal hooks hear `session:compact:before` (a summary is about to be written) and `session:compact:after` (it was). */
  hooks?: InternalHookSink;
  /** A compaction was written: what the session's next message should bring back (`postCompactionSections`). */
  compacted?: (sessionKey: string) => Promise<void>;
}

export interface CompactRequest {
  reason: CompactionReason;
  instructions?: string;
  /** The run holding the session's writer claim, or null outside a run (the session lane is held). */
  writerRunId: string | null;
  /** Runs not finished yet: their messages are never summarized. */
  unfinishedRunIds: ReadonlySet<string>;
  /** The model the session's turns use (summaries use it unless `compaction.model` is set). */
  modelRef?: string;
  emit?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

export type CompactResult = CompactionResult;

/**
 * Runs compactions for the conversation core: picks the summarizing model, calls
 * `compactSession`, appends the entry, counts it in the session row and drops the cached
 * history. The caller holds the session (its lane, and the writer claim inside a run).
 */
export class SessionCompactor {
  constructor(private readonly deps: SessionCompactorDeps) {}

  /** O(1): whether a context of `contextTokens` in a `windowTokens` window calls for compaction now. */
  due(contextTokens: number, windowTokens: number): boolean {
    const settings = resolveCompactionSettings(this.deps.config());
    return settings.enabled && contextTokens > compactionThresholds(windowTokens, settings).compactAt;
  }

  async compact(sessionKey: string, request: CompactRequest): Promise<CompactResult> {
    const config = this.deps.config();
    const settings = resolveCompactionSettings(config);
    if (!settings.enabled && request.reason !== "manual") return { ok: false, reason: "compaction is off (agents.defaults.compaction.enabled)" };
    const entry = this.deps.store.get(sessionKey);
    if (!entry) return { ok: false, reason: `session not found: ${sessionKey}` };
    const ref = settings.model ?? request.modelRef ?? entry.modelOverride ?? entry.model ?? agentModelRef(config, resolveAgentConfig(config, parseSessionKey(sessionKey).agentId));
    // The key is the failover's to pick (auth profiles, key lists, cooldowns); one that answers nothing says so.
    const resolved = resolveModel(ref, config, process.env, { requireKey: false });
    if (!resolved.ok) return { ok: false, reason: `no model to write the summary: ${resolved.message}` };
    const thresholds = compactionThresholds(resolved.model.contextWindow, settings);
    const automatic = request.reason !== "manual" ? request.reason : undefined;
    if (automatic) request.emit?.({ type: "auto_compaction_start", reason: automatic });
    const agentId = parseSessionKey(sessionKey).agentId;
    const chain = buildCandidateChain({ requested: resolved.model.ref, strict: true, fallbacks: [] }, config);
    const keyed = this.deps.failover.beginTurn({ chain, config, env: process.env, agentId, sessionKey, stream: this.deps.streamModel });
    this.deps.hooks?.emit({ type: "session", action: "compact:before", sessionKey, context: { agentId, reason: request.reason, model: resolved.model.ref } });

    const signal = request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(settings.timeoutMs)]) : AbortSignal.timeout(settings.timeoutMs);
    let outcome;
    try {
      outcome = await compactSession({
        source: this.deps.cachedInput(sessionKey) ?? compactionInput(this.deps.store.readTranscript(sessionKey).entries),
        reason: request.reason,
        ...(request.instructions ? { instructions: request.instructions } : {}),
        keepRecentTokens: thresholds.keepRecentTokens,
        summaryMaxTokens: Math.min(thresholds.summaryMaxTokens, resolved.model.maxTokens),
        unfinishedRunIds: request.unfinishedRunIds,
        streamModel: keyed.stream,
        model: resolved.model,
        signal,
      });
    } catch (err) {
      outcome = { ok: false as const, reason: (err as Error).message, tokensBefore: 0 };
    }
    const fail = (reason: string): CompactResult => {
      this.deps.logger.warn({ sessionKey, reason: request.reason, err: reason }, "compaction failed; the history is kept as it was");
      if (automatic) request.emit?.({ type: "auto_compaction_end", reason: automatic, ok: false, willRetry: false, error: reason });
      return { ok: false, reason };
    };
    if (!outcome.ok) {
      return fail(
        signal.aborted && !request.signal?.aborted ? `the summary took longer than ${settings.timeoutMs / 1000} s (agents.defaults.compaction.timeoutSeconds)` : outcome.reason,
      );
    }
    // A reset (/new) while the summary was written starts a new transcript: the summary belongs to the old one.
    if (this.deps.store.peek(sessionKey)?.sessionId !== entry.sessionId) return fail("the session was reset while its summary was written");
    try {
      this.deps.store.appendEntries(sessionKey, request.writerRunId, [outcome.entry]);
    } catch (err) {
      return fail(`the compaction could not be written: ${(err as Error).message}`);
    }
    const compactionCount = (this.deps.store.peek(sessionKey)?.compactionCount ?? 0) + 1;
    this.deps.store.patch(sessionKey, { compactionCount, contextTokens: outcome.tokensAfter });
    this.deps.applied(sessionKey, outcome.entry.firstKeptEntryId as string, outcome.entry.summary as string);
    this.deps.logger.info(
      { sessionKey, reason: request.reason, tokensBefore: outcome.tokensBefore, tokensAfter: outcome.tokensAfter, summarized: outcome.summarizedMessages },
      "session compacted",
    );
    if (automatic) {
      request.emit?.({
        type: "auto_compaction_end",
        reason: automatic,
        ok: true,
        willRetry: automatic === "overflow",
        tokensBefore: outcome.tokensBefore,
        tokensAfter: outcome.tokensAfter,
      });
    }
    if (automatic && settings.notifyUser) {
      this.deps.notify(
        sessionKey,
        `🧹 The conversation was getting long: ${outcome.summarizedMessages} older messages were summarized (context ≈${outcome.tokensBefore} → ≈${outcome.tokensAfter} tokens).`,
      );
    }
    this.deps.onSessionChanged(sessionKey, "compact");
    await this.deps.compacted?.(sessionKey);
    this.deps.hooks?.emit({
      type: "session",
      action: "compact:after",
      sessionKey,
      context: {
        agentId,
        reason: request.reason,
        tokensBefore: outcome.tokensBefore,
        tokensAfter: outcome.tokensAfter,
        summarizedMessages: outcome.summarizedMessages,
        compactionCount,
      },
    });
    return { ok: true, tokensBefore: outcome.tokensBefore, tokensAfter: outcome.tokensAfter, summarizedMessages: outcome.summarizedMessages, compactionCount };
  }
}
