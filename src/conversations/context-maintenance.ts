import type { InternalHookSink } from "../hooks/internal/types.js";
import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import type { TurnOverrides } from "../agents/embedded-turn.js";
import { isWorkspaceWritable, memoryFlushDue } from "../agents/compaction/memory-flush.js";
import { planToolResultPruning } from "../agents/pruning/prune-tool-results.js";
import { PruningClock, resolvePruningSettings } from "../agents/pruning/pruning-settings.js";
import type { AgentEvent, StreamModelFn, ToolServices } from "../agents/types.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { ModelFailover } from "../models/failover/index.js";
import { compactionThresholds, resolveCompactionSettings, type CompactionResult } from "../sessions/compaction/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { ConversationWindow } from "./conversation-window.js";
import type { HistoryCache } from "./history-cache.js";
import { runMemoryFlushTurn } from "./memory-flush-turn.js";
import type { RunEventBridge, RunEventSink } from "./run-event-bridge.js";
import type { RunRegistry } from "./run-registry.js";
import { SessionCompactor } from "./session-compactor.js";
import type { Turn } from "./turn-queue.js";

export interface ContextMaintenanceDeps {
  stateDir: string;
  config(): OpenClawConfig;
  store: SessionStore;
  logger: Logger;
  sink: RunEventSink;
  runs: RunRegistry;
  history: HistoryCache;
  streamModel: StreamModelFn;
  /** Keys and cooldowns, shared with the turns: a summary finds its key where a turn does. */
  failover: ModelFailover;
  services?: ToolServices;
  approvals?: ExecApprovalBroker;
  turnOverrides?: (sessionKey: string) => TurnOverrides | undefined;
  onSessionChanged(sessionKey: string, reason: string): void;
  /** The session's chat channel, for `compaction.notifyUser` (once per `key`). */
  notifyChat?: (sessionKey: string, text: string, key: string) => void;
  /** Internal hooks hear `session:compact:before` and `session:compact:after`. */
  hooks?: InternalHookSink;
  /** A compaction was written (see SessionCompactorDeps.compacted). */
  compacted?: (sessionKey: string) => Promise<void>;
}

/** What the turn runner reports about a finished turn. */
export interface FinishedTurn {
  ok: boolean;
  contextWindow?: number;
  systemPromptChars?: number;
  workspaceDir?: string;
  model?: string;
}

/**
 * Long sessions, around the turn (docs/sessions.md, "Long sessions"): tool-result pruning
 * before the history is taken, compaction when the provider overflows, and after a turn the
 * silent memory flush then compaction once the context nears the window. Every check is O(1)
 * from the cached window's running estimate.
 */
export class ContextMaintenance {
  readonly compactor: SessionCompactor;
  private readonly pruningClock = new PruningClock();
  /** Warnings already logged (small context windows), so each is logged once. */
  private readonly warned = new Set<string>();

  constructor(private readonly deps: ContextMaintenanceDeps) {
    this.compactor = new SessionCompactor({
      store: deps.store,
      config: deps.config,
      streamModel: deps.streamModel,
      failover: deps.failover,
      logger: deps.logger,
      cachedInput: (sessionKey) => deps.history.compactionInput(sessionKey),
      applied: (sessionKey, firstKeptEntryId, summary) => deps.history.applyCompaction(sessionKey, firstKeptEntryId, summary),
      onSessionChanged: (sessionKey, reason) => deps.onSessionChanged(sessionKey, reason),
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
      ...(deps.compacted ? { compacted: deps.compacted } : {}),
      notify: (sessionKey, text) => {
        deps.sink.chat({ sessionKey, state: "notice", kind: "compaction", text, runId: "" });
        const count = deps.store.peek(sessionKey)?.compactionCount ?? 0;
        deps.notifyChat?.(sessionKey, text, `compaction:${deps.store.peek(sessionKey)?.sessionId ?? sessionKey}:${count}`);
      },
    });
  }

  /** `/compact`, `sessions.compact`: the caller holds the session's lane. */
  compactNow(sessionKey: string, instructions: string | undefined, signal: AbortSignal): Promise<CompactionResult> {
    return this.compactor.compact(sessionKey, {
      reason: "manual",
      ...(instructions ? { instructions } : {}),
      writerRunId: null,
      unfinishedRunIds: this.unfinished(sessionKey),
      ...this.modelOf(sessionKey),
      signal,
    });
  }

  /** The loop's overflow recovery: compact inside the run (it holds the writer claim); true when the history shrank. */
  async compactOnOverflow(sessionKey: string, runId: string, emit: (event: AgentEvent) => void): Promise<boolean> {
    const result = await this.compactor.compact(sessionKey, {
      reason: "overflow",
      writerRunId: runId,
      unfinishedRunIds: this.unfinished(sessionKey),
      ...this.modelOf(sessionKey),
      emit,
    });
    return result.ok;
  }

  /** `agents.defaults.contextPruning`: once the provider's cache has expired, shorten old tool results in the cached window (never on disk). */
  prune(sessionKey: string, window: ConversationWindow, windowTokens: number): void {
    const settings = resolvePruningSettings(this.deps.config());
    if (!settings || !this.pruningClock.due(sessionKey, settings.ttlMs, Date.now())) return;
    const changed = window.rewriteToolResults((messages, tokens) => planToolResultPruning(messages, tokens, { ...settings, windowTokens }));
    if (changed > 0) this.deps.logger.debug({ sessionKey, toolResults: changed }, "old tool results pruned for the request");
  }

  /** The session's context after a turn (cached history plus system prompt), for the session row and the checks; O(1). */
  contextTokens(sessionKey: string, systemPromptChars: number | undefined): number | undefined {
    const history = this.deps.history.contextTokens(sessionKey);
    return history === undefined ? undefined : history + Math.ceil((systemPromptChars ?? 0) / 4);
  }

  /**
   * After a turn, with the lane still held (the reply is already out): the silent memory flush
   * when the context nears the compaction mark (once per cycle), then compaction past it.
   */
  async afterTurn(turn: Turn, finished: FinishedTurn, contextTokens: number | undefined, bridge: RunEventBridge): Promise<void> {
    this.pruningClock.touch(turn.sessionKey, Date.now());
    try {
      await this.maintain(turn, finished, contextTokens, bridge);
    } catch (err) {
      // The turn is over and answered: a failure here costs the maintenance, never the turn.
      this.deps.logger.error({ sessionKey: turn.sessionKey, err: (err as Error).message }, "context maintenance after the turn failed");
    }
  }

  private async maintain(turn: Turn, finished: FinishedTurn, contextTokens: number | undefined, bridge: RunEventBridge): Promise<void> {
    if (!finished.ok || contextTokens === undefined || !finished.contextWindow) return;
    const config = this.deps.config();
    const settings = resolveCompactionSettings(config);
    const thresholds = compactionThresholds(finished.contextWindow, settings);
    const entry = this.deps.store.peek(turn.sessionKey);
    const flush = memoryFlushDue({
      contextTokens,
      thresholds,
      settings,
      compactionCount: entry?.compactionCount,
      memoryFlushCompactionCount: entry?.memoryFlushCompactionCount,
      runtimeTurn: turn.runtime === true,
      workspaceWritable: () => isWorkspaceWritable(finished.workspaceDir),
    });
    if (flush) {
      await runMemoryFlushTurn({
        config,
        stateDir: this.deps.stateDir,
        store: this.deps.store,
        logger: this.deps.logger,
        streamModel: this.deps.streamModel,
        failover: this.deps.failover,
        ...(this.deps.services ? { services: this.deps.services } : {}),
        sessionKey: turn.sessionKey,
        agentId: turn.agentId,
        senderIsOwner: turn.senderIsOwner,
        overrides: this.deps.turnOverrides?.(turn.sessionKey),
        history: (tokenBudget) => this.deps.history.window(turn.sessionKey, tokenBudget, this.unfinished(turn.sessionKey)),
        timeoutMs: settings.timeoutMs,
      });
    }
    if (!this.compactor.due(contextTokens, finished.contextWindow)) return;
    await this.compactor.compact(turn.sessionKey, {
      reason: "threshold",
      writerRunId: null,
      unfinishedRunIds: this.unfinished(turn.sessionKey),
      ...(finished.model ? { modelRef: finished.model } : {}),
      emit: (event) => {
        if (event.type === "auto_compaction_start" || event.type === "auto_compaction_end") bridge.compaction(event);
      },
    });
  }

  warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.deps.logger.warn(message);
  }

  private unfinished(sessionKey: string): Set<string> {
    return new Set(this.deps.runs.activeFor(sessionKey).map((r) => r.runId));
  }

  private modelOf(sessionKey: string): { modelRef?: string } {
    const ref = this.deps.turnOverrides?.(sessionKey)?.modelOverride;
    return ref ? { modelRef: ref } : {};
  }
}
