import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { defaultAgentId } from "../agents/agent-config.js";
import { runEmbeddedTurn, warmUpAgentContext, type TurnOverrides } from "../agents/embedded-turn.js";
import { subagentMaxConcurrent } from "../agents/subagents/index.js";
import { createStreamModel, listConfiguredModels, resolveModel, type StreamModel } from "../models/index.js";
import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import type { AgentEvent, ModelMessage, RunResult, StreamModelFn, ToolServices, TranscriptMessage, UserMessage } from "../agents/types.js";
import { buildMainSessionKey, isSubagentSessionKey, normalizeSessionKey, parseSessionKey } from "../sessions/keys/index.js";
import type { ChannelOrigin, ConversationPort, StopOutcome, SubmitInput, SubmitOutcome } from "../agents/conversation-port.js";
import { createSessionInbox, LaneScheduler, type InboundMessage, type InboxNotice, type QueueMode, type SessionInbox } from "../sessions/lanes/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { IdempotencyLedger } from "../sessions/idempotency/index.js";
import { createRunEventBridge, type RunEventSink } from "./run-event-bridge.js";
import { RunRegistry, type RunRecord, type RunStatus } from "./run-registry.js";
import { sessionResetDue } from "./session-reset-policy.js";
import { orderConversation } from "./conversation-order.js";
import { ConversationWindow } from "./conversation-window.js";
import { SessionCache } from "./session-cache.js";
import { afterLatestCompaction, compactionSummaryMessage, toHistoryItems } from "../sessions/history/index.js";
import { InternalTurnQueue, MERGED_MESSAGE_SEPARATOR, type InternalMessage } from "./internal-turn-queue.js";

export interface ConversationDeps {
  stateDir: string;
  config: () => OpenClawConfig;
  store: SessionStore;
  ledger: IdempotencyLedger;
  logger: Logger;
  sink: RunEventSink;
  /** Tells clients a session's row changed (`sessions.changed`). */
  onSessionChanged: (sessionKey: string, reason: string) => void;
  approvals?: ExecApprovalBroker;
  services?: ToolServices;
  /** `/stop` cascades: returns how many sub-agents of the session were stopped. */
  onStop?: (sessionKey: string) => number;
  /** Rotates a transcript that grew too big; called after each turn. */
  maintenance?: { rotateIfLarge(sessionKey: string): boolean };
  streamModel?: StreamModelFn;
  /** Per-session turn changes (sub-agent sessions: minimal prompt, tool limits, model); read at each turn. */
  turnOverrides?: (sessionKey: string) => TurnOverrides | undefined;
}

type Turn = {
  sessionKey: string;
  agentId: string;
  members: string[];
  text: string;
  onEvents: ((e: AgentEvent) => void)[];
  extraSystemPrompt?: string;
  onSteered?: (ids: string[]) => void;
  senderIsOwner: boolean;
  channel?: string;
};

const RESET_COMMANDS = new Set(["/new", "/reset"]);
/** Sessions whose history window (model projections) stays in memory between turns. */
const WINDOW_CACHE_SESSIONS = 256;
/** Sessions whose full transcript stays parsed for readers (chat.history, tools, sub-agents). */
const TRANSCRIPT_CACHE_SESSIONS = 16;
const STOP_COMMANDS = new Set(["/stop", "/abort", "stop", "/cancel"]);

/**
 * Conversations: accept a message (persisted before it is acknowledged), run it on its
 * session's lane, stream its events, persist what the run produced, and answer duplicates from
 * the idempotency ledger so a re-sent key never runs twice — also after a restart.
 */
export class ConversationService implements ConversationPort {
  readonly runs = new RunRegistry();
  readonly lanes: LaneScheduler;
  private readonly inboxes = new Map<string, SessionInbox>();
  private readonly steeredCount = new Map<string, number>();
  private readonly activeTurns = new Map<string, Turn>();
  private readonly pendingListeners = new Map<string, (e: AgentEvent) => void>();
  /** History windows of recently active sessions, so a turn does not re-read its whole file. */
  private readonly windows = new SessionCache<ConversationWindow>(WINDOW_CACHE_SESSIONS);
  /** Parsed transcripts of sessions recently read whole (history, display, tools). */
  private readonly transcripts = new SessionCache<TranscriptMessage[]>(TRANSCRIPT_CACHE_SESSIONS);
  private readonly streamModel: StreamModelFn;
  /** Runs whose messages were summarized (queue overflow) and wait for the turn that carries the summary. */
  private readonly summarizedWaiting = new Map<string, string[]>();
  private readonly internalQueue = new InternalTurnQueue();
  private resolveFirstTurnEnded!: () => void;
  /** Settles when this process's first turn has ended (its model SDK loaded, its caches filled). */
  readonly firstTurnEnded = new Promise<void>((resolve) => (this.resolveFirstTurnEnded = resolve));

  constructor(private readonly deps: ConversationDeps) {
    // Sub-agent sessions run on their own `subagent` lane, under their own cap.
    this.lanes = new LaneScheduler({
      maxConcurrent: deps.config().agents.defaults.maxConcurrent,
      pools: [{ name: "subagent", maxConcurrent: subagentMaxConcurrent(deps.config()), matches: isSubagentSessionKey }],
    });
    this.streamModel = deps.streamModel ?? createStreamModel();
  }

  /**
   * Load the SDKs of the configured models in the background once the gateway is up, so the
   * first conversation does not pay for importing them (a few hundred ms).
   */
  warmUp(): void {
    const model = this.streamModel as Partial<StreamModel>;
    if (!model.warmUp) return;
    const config = this.deps.config();
    const apis = new Set(listConfiguredModels(config, process.env).filter((m) => m.available).map((m) => resolveModel(m.ref, config, process.env)).flatMap((r) => (r.ok ? [r.model.api] : [])));
    model.warmUp(apis);
    // The default agent's workspace, bootstrap files and skills, read once now instead of by the first turn.
    void warmUpAgentContext(config, defaultAgentId(config), this.deps.stateDir, process.env).catch((err) =>
      this.deps.logger.warn({ err: (err as Error).message }, "agent workspace warm-up failed"),
    );
  }

  applyConfig(config: OpenClawConfig): void {
    this.lanes.setMaxConcurrent(config.agents.defaults.maxConcurrent);
    this.lanes.setPoolMaxConcurrent("subagent", subagentMaxConcurrent(config));
  }

  resolveSessionKey(sessionKey: string | undefined, agentId: string | undefined): { sessionKey: string; agentId: string } {
    const config = this.deps.config();
    const fallbackAgent = (agentId ?? defaultAgentId(config)).toLowerCase();
    const built = sessionKey ? normalizeSessionKey(sessionKey, fallbackAgent) : buildMainSessionKey(fallbackAgent, config.session.mainKey);
    // The store's instance of the key: the run and ledger records kept per turn then share one string.
    const key = this.deps.store.sharedKey(built);
    return { sessionKey: key, agentId: parseSessionKey(key).agentId };
  }

  /**
   * Accept a message. Resolves once it is acknowledged-safe: its ledger record and transcript
   * line are on disk (fsyncs shared with concurrent submits, off the event loop).
   */
  async submit(input: SubmitInput): Promise<SubmitOutcome> {
    const { sessionKey, agentId } = this.resolveSessionKey(input.sessionKey, input.agentId);
    const runId = input.idempotencyKey ?? randomUUID();
    const text = input.message;
    const trimmed = text.trim().toLowerCase();

    if (STOP_COMMANDS.has(trimmed)) {
      const stopped = this.stop(sessionKey);
      return { kind: "command", runId, sessionKey, command: "stop", aborted: stopped.runIds, subagentsStopped: stopped.subagents };
    }

    if (input.idempotencyKey !== undefined) {
      const begun = this.deps.ledger.begin(runId, { runId, sessionKey, method: input.method }, { deferSync: true });
      if (!begun.fresh) {
        const run = this.runs.get(runId);
        if (run) return { kind: "duplicate", runId, sessionKey: run.sessionKey, status: run.endedAt ? run.status : "in_flight", run };
        return { kind: "duplicate", runId, sessionKey: begun.record.sessionKey ?? sessionKey, status: (begun.record.status ?? "in_flight") as RunStatus, summary: begun.record.summary };
      }
    }

    if (RESET_COMMANDS.has(trimmed)) {
      this.abort(sessionKey);
      this.deps.store.reset(sessionKey);
      this.deps.ledger.complete(runId, { status: "ok", summary: "session reset" });
      this.deps.onSessionChanged(sessionKey, "reset");
      return { kind: "command", runId, sessionKey, command: "reset" };
    }

    const entry = this.deps.store.peek(sessionKey);
    if (entry && sessionResetDue(entry.updatedAt, this.deps.config().session.reset, Date.now()) && !this.busy(sessionKey)) {
      this.deps.store.reset(sessionKey);
    }
    this.deps.store.ensure(sessionKey, { agentId });
    if (input.origin) this.recordOrigin(sessionKey, input.origin);
    // Durable before anything is acknowledged: a crash after this point keeps the message.
    this.append(sessionKey, null, [
      {
        role: "user", content: text, timestamp: Date.now(), idempotencyKey: runId,
        provenance: input.provenance ?? { kind: "external_user", method: input.method, ...(input.origin ? { channel: input.origin.channel, accountId: input.origin.accountId, senderId: input.origin.senderId } : {}) },
        ...input.transcriptFields,
      },
    ]);
    const durable = input.idempotencyKey === undefined
      ? this.deps.store.whenDurable(sessionKey)
      : Promise.all([this.deps.ledger.whenDurable(), this.deps.store.whenDurable(sessionKey)]);
    const run = this.runs.create(runId, sessionKey, agentId);
    if (input.onEvent) this.pendingListeners.set(runId, input.onEvent);

    if (!this.busy(sessionKey)) {
      const turn: Turn = {
        sessionKey, agentId, members: [runId], text, onEvents: input.onEvent ? [input.onEvent] : [], extraSystemPrompt: input.extraSystemPrompt,
        senderIsOwner: input.senderIsOwner ?? true, channel: input.origin?.channel,
      };
      // Hold the session now (later messages queue behind this one), but run only once the
      // message is on disk, so the acknowledgement always precedes the run's events.
      this.activeTurns.set(sessionKey, turn);
      try {
        await durable;
      } catch (err) {
        this.activeTurns.delete(sessionKey);
        this.finishRuns([runId], "error", undefined, (err as Error).message);
        this.afterTurn(sessionKey);
        throw err;
      }
      this.startTurn(turn);
      return { kind: "accepted", run, queued: "started" };
    }
    if (input.internal) {
      this.internalQueue.add(sessionKey, { runId, agentId, text, mergeable: input.internal.mergeable === true, senderIsOwner: input.senderIsOwner ?? true });
      await durable;
      return { kind: "accepted", run, queued: "queued" };
    }
    const inbox = this.inboxFor(sessionKey, input.queueMode);
    const offer = inbox.offer({ id: runId, text, receivedAt: Date.now(), meta: { agentId, senderIsOwner: input.senderIsOwner ?? true, channel: input.origin?.channel } });
    if (offer.action === "rejected") {
      this.endUnstartedRuns(sessionKey, [runId], "error", offer.notice ?? "message refused: the session's queue is full");
      return { kind: "rejected", runId, sessionKey, notice: offer.notice ?? "message refused: the session's queue is full" };
    }
    if (offer.action === "steered") this.steeredCount.set(sessionKey, (this.steeredCount.get(sessionKey) ?? 0) + 1);
    if (offer.action === "interrupt") this.lanes.abortActive(sessionKey, new Error("interrupted by a newer message"));
    await durable;
    return { kind: "accepted", run, queued: offer.action };
  }

  /** `/stop`: abort the session's runs and queue, and (through `onStop`) the sub-agents it spawned. */
  stop(sessionKey: string): StopOutcome {
    const runIds = this.abort(sessionKey);
    return { runIds, subagents: this.deps.onStop?.(sessionKey) ?? 0 };
  }

  /** Abort the session's active and queued runs; returns the run ids that were stopped. */
  abort(sessionKey: string, runId?: string): string[] {
    const targets = this.runs.activeFor(sessionKey).filter((r) => !runId || r.runId === runId);
    const queued = new Set<string>();
    if (!runId) {
      const cleared = this.inboxes.get(sessionKey)?.clear();
      for (const m of cleared?.messages ?? []) queued.add(m.id);
      for (const id of this.summarizedWaiting.get(sessionKey) ?? []) queued.add(id);
      for (const m of this.internalQueue.clear(sessionKey)) queued.add(m.runId);
      this.summarizedWaiting.delete(sessionKey);
      this.steeredCount.delete(sessionKey);
    }
    // Runs waiting in the inbox never started: they get their terminal events here. Everything
    // else (running, or queued on the lane) is aborted and ends through its own turn.
    for (const run of targets) if (!queued.has(run.runId)) run.controller.abort(new Error("aborted"));
    this.endUnstartedRuns(sessionKey, [...queued], "aborted", "aborted before it ran");
    return targets.map((r) => r.runId);
  }

  /** The session's transcript messages, oldest first (read-only: callers must not mutate). */
  history(sessionKey: string): readonly TranscriptMessage[] {
    const entry = this.deps.store.peek(sessionKey);
    if (!entry) return [];
    const cached = this.transcripts.get(sessionKey, entry.sessionId);
    if (cached) return cached;
    const messages = this.readMessages(sessionKey);
    this.transcripts.set(sessionKey, entry.sessionId, messages);
    return messages;
  }

  private readMessages(sessionKey: string): TranscriptMessage[] {
    const { entries } = this.deps.store.readTranscript(sessionKey);
    return entries.filter((e) => e.type === "message").map((e) => e.message as TranscriptMessage);
  }

  /** The conversation as chat surfaces show it: questions before their answers. */
  displayHistory(sessionKey: string): TranscriptMessage[] {
    return orderConversation(this.history(sessionKey));
  }

  /**
   * What a new turn sees as history: the newest part of the ordered conversation that fits the
   * budget, without user messages whose runs have not finished — the turn's own (they are its
   * prompt) and those still waiting in the queue. Kept up to date message by message
   * (ConversationWindow), so a long session does not re-walk its whole transcript every turn.
   */
  private historyWindow(sessionKey: string, tokenBudget: number): ModelMessage[] {
    const waiting = new Set(this.runs.activeFor(sessionKey).map((r) => r.runId));
    const entry = this.deps.store.peek(sessionKey);
    if (!entry) return [];
    let window = this.windows.get(sessionKey, entry.sessionId);
    if (!window) {
      // From the file's entries: a compaction summary (kept across rotation) stands for
      // everything before its first kept message and goes first in every turn's history.
      const { summary, messages } = afterLatestCompaction(toHistoryItems(this.deps.store.readTranscript(sessionKey).entries));
      window = new ConversationWindow(messages.map((item) => item.message), summary && compactionSummaryMessage(summary));
      this.windows.set(sessionKey, entry.sessionId, window);
    }
    return window.window(tokenBudget, waiting);
  }

  /** Append to the transcript and the cached history; the caller awaits `store.whenDurable` before acknowledging. */
  private append(sessionKey: string, runId: string | null, messages: TranscriptMessage[]): void {
    const written = this.deps.store.appendMessages(sessionKey, runId, messages, { deferSync: true });
    const sessionId = this.deps.store.peek(sessionKey)?.sessionId;
    const window = this.windows.peek(sessionKey, sessionId);
    const transcript = this.transcripts.peek(sessionKey, sessionId);
    for (const e of written) {
      window?.add(e.message as TranscriptMessage);
      transcript?.push(e.message as TranscriptMessage);
    }
  }

  /** True when this idempotency key was ever accepted (also before a restart). */
  hasAccepted(idempotencyKey: string): boolean {
    return this.deps.ledger.get(idempotencyKey) !== undefined;
  }

  /** The session's last inbound route: where its channel conversation lives. */
  private recordOrigin(sessionKey: string, origin: ChannelOrigin): void {
    const entry = this.deps.store.peek(sessionKey);
    if (entry?.lastChannel === origin.channel && entry.lastTo === origin.to && entry.lastAccountId === origin.accountId && entry.lastThreadId === origin.threadId) return;
    this.deps.store.patch(sessionKey, {
      channel: entry?.channel ?? origin.channel,
      chatType: entry?.chatType ?? origin.chatType,
      origin: entry?.origin ?? { provider: origin.channel, surface: origin.channel, chatType: origin.chatType, from: origin.senderId, to: origin.to, accountId: origin.accountId, ...(origin.threadId ? { threadId: origin.threadId } : {}), ...(origin.senderName ? { label: origin.senderName } : {}) },
      lastChannel: origin.channel,
      lastTo: origin.to,
      lastAccountId: origin.accountId,
      lastThreadId: origin.threadId,
    });
  }

  isActive(sessionKey: string): boolean {
    return this.activeTurns.has(sessionKey);
  }

  async drain(): Promise<void> {
    for (const run of this.runs.all()) if (!run.endedAt) run.controller.abort(new Error("gateway stopping"));
    await this.lanes.drain();
  }

  private busy(sessionKey: string): boolean {
    // Waiting inbox messages count too: a newcomer must not overtake an older collected batch.
    return (
      this.activeTurns.has(sessionKey) ||
      this.lanes.isActive(sessionKey) ||
      this.lanes.queuedCount(sessionKey) > 0 ||
      (this.inboxes.get(sessionKey)?.pendingCount() ?? 0) > 0 ||
      this.internalQueue.pendingCount(sessionKey) > 0
    );
  }

  private inboxFor(sessionKey: string, override?: QueueMode): SessionInbox {
    let inbox = this.inboxes.get(sessionKey);
    if (!inbox || (override && inbox.mode !== override && inbox.pendingCount() === 0)) {
      const queue = this.deps.config().messages?.queue ?? {};
      inbox = createSessionInbox({
        sessionKey,
        mode: override ?? queue.mode ?? "steer",
        cap: queue.cap,
        drop: queue.drop,
        debounceMs: queue.debounceMs,
        notify: (notice) => this.onInboxNotice(sessionKey, notice),
      });
      this.inboxes.set(sessionKey, inbox);
    }
    return inbox;
  }

  /**
   * The inbox had to drop or summarize queued messages (past `messages.queue.cap`). The sender
   * hears about it; a dropped message's run ends now, a summarized one's ends with the turn that
   * carries its summary — no run is left waiting forever.
   */
  private onInboxNotice(sessionKey: string, notice: InboxNotice): void {
    this.deps.sink.chat({ sessionKey, state: "notice", kind: notice.kind, text: notice.text, messageIds: notice.messageIds, runId: notice.messageIds[0] ?? "" });
    if (notice.kind === "dropped") this.endUnstartedRuns(sessionKey, notice.messageIds, "error", notice.text);
    if (notice.kind === "summarized") {
      const waiting = this.summarizedWaiting.get(sessionKey) ?? [];
      waiting.push(...notice.messageIds);
      this.summarizedWaiting.set(sessionKey, waiting);
    }
  }

  /** End runs that never started (dropped, aborted while queued) with the events a started run would end with. */
  private endUnstartedRuns(sessionKey: string, runIds: string[], state: "aborted" | "error", message: string): void {
    const pending = runIds.filter((id) => {
      const run = this.runs.get(id);
      return run && !run.endedAt;
    });
    for (const id of pending) {
      const run = this.runs.get(id)!;
      this.deps.sink.agent({ runId: id, seq: 1, stream: "lifecycle", ts: Date.now(), sessionKey, agentId: run.agentId, data: state === "aborted" ? { phase: "end", aborted: true } : { phase: "error", error: message } });
      this.deps.sink.chat({ runId: id, sessionKey, agentId: run.agentId, seq: 1, state, ...(state === "error" ? { errorMessage: message } : { stopReason: "rpc" }) });
    }
    this.finishRuns(pending, state === "aborted" ? "aborted" : "error", undefined, message);
  }

  private startTurn(turn: Turn): void {
    // Messages summarized into this turn's prompt are answered by it.
    const summarized = this.summarizedWaiting.get(turn.sessionKey);
    if (summarized?.length) {
      turn.members.unshift(...summarized.filter((id) => !turn.members.includes(id)));
      this.summarizedWaiting.delete(turn.sessionKey);
    }
    this.activeTurns.set(turn.sessionKey, turn);
    this.lanes
      .enqueue(turn.sessionKey, (signal) => this.executeTurn(turn, signal))
      .catch((err) => {
        this.deps.logger.error({ sessionKey: turn.sessionKey, err: (err as Error).message }, "turn failed to run");
        this.finishRuns(turn.members, "error", undefined, (err as Error).message);
      })
      .finally(() => this.afterTurn(turn.sessionKey));
  }

  private afterTurn(sessionKey: string): void {
    this.activeTurns.delete(sessionKey);
    this.steeredCount.delete(sessionKey);
    if (this.startInternalTurn(sessionKey)) return;
    const inbox = this.inboxes.get(sessionKey);
    if (!inbox) return;
    const next = inbox.nextTurn();
    if (next) return this.startQueuedTurn(sessionKey, next.messages, next.mergedText);
    if (inbox.pendingCount() > 0) {
      void inbox.whenReady().then(() => {
        if (this.busy(sessionKey)) return;
        const ready = inbox.nextTurn();
        if (ready) this.startQueuedTurn(sessionKey, ready.messages, ready.mergedText);
      });
    }
  }

  /**
   * Runtime messages that waited for the session go next, as their own turn (announcements that
   * waited together share one). Steering the finished turn never took becomes followups first,
   * so user messages keep their order behind it.
   */
  private startInternalTurn(sessionKey: string): boolean {
    const messages: InternalMessage[] | undefined = this.internalQueue.take(sessionKey);
    if (!messages) return false;
    this.inboxes.get(sessionKey)?.runEnded();
    const members = messages.map((m) => m.runId);
    const onEvents = members.map((id) => this.pendingListeners.get(id)).filter((f): f is (e: AgentEvent) => void => Boolean(f));
    const text = messages.map((m) => m.text).join(MERGED_MESSAGE_SEPARATOR);
    this.startTurn({ sessionKey, agentId: messages[0]!.agentId, members, text, onEvents, senderIsOwner: messages.every((m) => m.senderIsOwner) });
    return true;
  }

  private startQueuedTurn(sessionKey: string, messages: InboundMessage[], text: string): void {
    const agentId = String(messages[0]?.meta?.agentId ?? parseSessionKey(sessionKey).agentId);
    const members = messages.map((m) => m.id);
    const onEvents = members.map((id) => this.pendingListeners.get(id)).filter((f): f is (e: AgentEvent) => void => Boolean(f));
    // A merged turn runs with the least privilege of the messages in it.
    const senderIsOwner = messages.every((m) => m.meta?.senderIsOwner !== false);
    const channel = messages.map((m) => m.meta?.channel).find((c): c is string => typeof c === "string");
    this.startTurn({ sessionKey, agentId, members, text, onEvents, senderIsOwner, channel });
  }

  private async executeTurn(turn: Turn, laneSignal: AbortSignal): Promise<void> {
    const { sessionKey, agentId } = turn;
    const primary = turn.members[turn.members.length - 1]!;
    const controller = new AbortController();
    const abort = () => controller.abort(new Error("aborted"));
    // Every member run's abort stops the turn. The listeners are removed when the turn ends:
    // finished runs stay in the registry for a while, and a listener left behind would keep the
    // whole turn (request, SDK stream, buffers) alive with them.
    const watched: AbortSignal[] = [laneSignal];
    laneSignal.addEventListener("abort", abort, { once: true });
    const watchRun = (id: string) => {
      const signal = this.runs.get(id)?.controller.signal;
      if (!signal) return;
      signal.addEventListener("abort", abort, { once: true });
      watched.push(signal);
    };
    for (const id of turn.members) {
      this.runs.markRunning(id);
      watchRun(id);
    }
    // A run aborted while it waited for a lane slot fired its abort before anyone listened.
    if (turn.members.some((id) => this.runs.get(id)?.controller.signal.aborted)) abort();
    const previousOnSteered = turn.onSteered;
    turn.onSteered = (ids) => {
      previousOnSteered?.(ids);
      ids.forEach(watchRun);
    };
    const store = this.deps.store;
    store.claimWriter(sessionKey, primary);
    const bridge = createRunEventBridge({ runId: primary, sessionKey, agentId, sink: this.deps.sink });
    const config = this.deps.config();
    // The first assistant message after a prompt records which messages it answers.
    let unanswered = [...turn.members];
    const watchSteered = turn.onSteered;
    turn.onSteered = (ids) => {
      watchSteered?.(ids);
      unanswered.push(...ids);
    };

    let result: RunResult & { model?: string };
    try {
      result = await runEmbeddedTurn({
        config,
        stateDir: this.deps.stateDir,
        env: process.env,
        message: turn.text,
        agentId,
        runId: primary,
        extraSystemPrompt: turn.extraSystemPrompt,
        senderIsOwner: turn.senderIsOwner,
        ...(turn.channel ? { channel: turn.channel } : {}),
        sessionKey,
        // Last, so a sub-agent's frozen sender policy and limits win over the turn's defaults.
        ...this.deps.turnOverrides?.(sessionKey),
        signal: controller.signal,
        services: this.deps.services,
        approvals: this.deps.approvals,
        streamModel: this.streamModel,
        emit: (event) => {
          bridge.onEvent(event);
          for (const listener of turn.onEvents) listener(event);
        },
        history: (tokenBudget) => this.historyWindow(sessionKey, tokenBudget),
        steering: {
          pending: () => (this.steeredCount.get(sessionKey) ?? 0) > 0,
          take: () => this.takeSteering(turn),
        },
        // Steering messages were persisted when they arrived; everything else is persisted now.
        onAppend: (message) => {
          if (message.role === "user") return;
          if (message.role === "assistant" && unanswered.length > 0) {
            this.append(sessionKey, primary, [withAnswers(message, unanswered)]);
            unanswered = [];
          } else this.append(sessionKey, primary, [message as TranscriptMessage]);
        },
      });
    } catch (err) {
      const message = (err as Error).message;
      this.deps.logger.error({ sessionKey, runId: primary, err: message }, "agent turn crashed");
      result = { runId: primary, payloads: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, durationMs: 0, stopReason: "error", error: { kind: "unknown", message }, messages: [] };
    } finally {
      for (const signal of watched) signal.removeEventListener("abort", abort);
    }
    // What the run wrote is on disk before anyone is told the run is over.
    await this.deps.store.whenDurable(sessionKey).catch((err) => this.deps.logger.error({ sessionKey, err: (err as Error).message }, "transcript sync failed"));
    bridge.finish(result);
    const status: RunStatus =
      result.stopReason === "stop" || result.stopReason === "length" ? "ok" : result.stopReason === "timeout" ? "timeout" : result.stopReason === "aborted" ? "aborted" : "error";
    try {
      const entry = store.peek(sessionKey);
      store.patch(sessionKey, {
        updatedAt: Date.now(),
        inputTokens: (entry?.inputTokens ?? 0) + result.usage.input,
        outputTokens: (entry?.outputTokens ?? 0) + result.usage.output,
        totalTokens: (entry?.totalTokens ?? 0) + result.usage.input + result.usage.output,
        abortedLastRun: status === "aborted",
        ...(result.model ? { model: result.model } : {}),
      });
      store.releaseWriter(sessionKey, primary);
    } catch (err) {
      this.deps.logger.warn({ sessionKey, err: (err as Error).message }, "session metadata not updated");
    }
    this.finishRuns(turn.members, status, result);
    // A rotated transcript starts over with recent history only; re-read it next time.
    if (this.deps.maintenance?.rotateIfLarge(sessionKey)) {
      this.windows.delete(sessionKey);
      this.transcripts.delete(sessionKey);
    }
    this.deps.onSessionChanged(sessionKey, "run-ended");
    this.resolveFirstTurnEnded();
  }

  private takeSteering(turn: Turn): UserMessage[] {
    const taken = this.inboxes.get(turn.sessionKey)?.takeSteering() ?? [];
    this.steeredCount.set(turn.sessionKey, 0);
    for (const message of taken) {
      if (message.meta?.synthetic === "queue-summary") {
        // The summary reaches the model now: the summarized messages are answered by this turn.
        const ids = (message.meta.summarizedIds as string[] | undefined) ?? this.summarizedWaiting.get(turn.sessionKey) ?? [];
        this.summarizedWaiting.delete(turn.sessionKey);
        for (const id of ids) if (!turn.members.includes(id)) turn.members.push(id);
        turn.onSteered?.(ids);
        continue;
      }
      turn.members.push(message.id);
      turn.onSteered?.([message.id]);
      this.runs.markRunning(message.id);
      const listener = this.pendingListeners.get(message.id);
      if (listener) turn.onEvents.push(listener);
    }
    return taken.map((m) => ({ role: "user", content: m.text, timestamp: m.receivedAt }));
  }

  private finishRuns(runIds: string[], status: Exclude<RunStatus, "queued" | "running">, result?: RunRecord["result"], errorMessage?: string): void {
    const summary = result?.payloads.map((p) => p.text).join("\n").slice(0, 500) ?? errorMessage;
    for (const id of runIds) {
      this.pendingListeners.delete(id);
      this.runs.finish(id, status, result);
      try {
        this.deps.ledger.complete(id, { status: status === "ok" ? "ok" : status === "aborted" ? "aborted" : "error", ...(summary ? { summary } : {}) });
      } catch (err) {
        this.deps.logger.warn({ runId: id, err: (err as Error).message }, "idempotency ledger not updated");
      }
    }
  }
}

/**
 * The assistant message with the idempotency keys it answers. Not `{ ...message, answers }`:
 * once optimized, V8 (Node 20) gives every object built by that spread its own hidden class,
 * about 400 bytes each that a session's cached history keeps for every turn. Copying into a
 * fresh literal walks the shared transition tree instead.
 */
function withAnswers(message: ModelMessage, answers: string[]): TranscriptMessage {
  return Object.assign({}, message, { answers }) as unknown as TranscriptMessage;
}
