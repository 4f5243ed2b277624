import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { defaultAgentId } from "../agents/agent-config.js";
import type { StartupReason } from "../agents/context/startup-context.js";
import { FORK_MAX_TOKENS, forkedMessages } from "./fork-conversation.js";
import { warmUpAgentContext, type TurnOverrides } from "../agents/embedded-turn.js";
import { subagentMaxConcurrent } from "../agents/subagents/index.js";
import { askSideQuestion } from "./side-question.js";
import { callReviewJudge } from "./review-judge-call.js";
import { PROGRESS_REFRESH_SOURCE, refreshRequest, runProgressRefreshTurn } from "./progress-refresh-turn.js";
import { ControlSteering, type ControlRequest } from "./control-steering.js";
import { injectedAssistantMessage } from "./injected-message.js";
import { ModelFailover, type AuthProfileStore } from "../models/failover/index.js";
import { createStreamModel, listConfiguredModels, resolveModel, type StreamModel } from "../models/index.js";
import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import type { StreamModelFn, ToolServices, TranscriptMessage } from "../agents/types.js";
import type {
  ChannelOrigin,
  ConversationPort,
  ForkOutcome,
  InjectOutcome,
  ResetInput,
  ResetOutcome,
  SessionChangeDetail,
  SideAnswer,
  StopOutcome,
  SubmitInput,
  SubmitOutcome,
} from "../agents/conversation-port.js";
import type { ChatSenders } from "../agents/questions/chat-answerers.js";
import { buildMainSessionKey, isAcpSessionKey, isSubagentSessionKey, normalizeSessionKey, parseSessionKey } from "../sessions/keys/index.js";
import { LaneScheduler } from "../sessions/lanes/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { IdempotencyLedger } from "../sessions/idempotency/index.js";
import type { RunEventSink } from "./run-event-bridge.js";
import { RunRegistry, type RunStatus } from "./run-registry.js";
import { resetSettingsFor, sessionResetDue } from "./session-reset-policy.js";
import { HistoryCache, type MessagesAppended } from "./history-cache.js";
import { RunEndings } from "./run-endings.js";
import { TurnQueue, type Turn } from "./turn-queue.js";
import { TurnRunner } from "./turn-runner.js";
import { messageTurnSettings } from "./message-turn-settings.js";
import { GatewayStoppingError } from "./shutdown-endings.js";
import { ContextMaintenance } from "./context-maintenance.js";
import type { CompactionResult } from "../sessions/compaction/index.js";
import type { JudgeAnswer, JudgeCall, RunTracer } from "../traces/index.js";
import { visibleProgressCard } from "../sessions/progress-card/index.js";
import type { InternalHookSink } from "../hooks/internal/types.js";
import { messageText } from "../sessions/compaction/identifiers.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import type { SessionSystemEvents } from "../sessions/system-events/session-system-events.js";
import { SessionNotices } from "./session-notices.js";

export interface ConversationDeps {
  stateDir: string;
  config: () => OpenClawConfig;
  store: SessionStore;
  ledger: IdempotencyLedger;
  logger: Logger;
  sink: RunEventSink;
  /** Tells clients a session's row changed (`sessions.changed`). */
  onSessionChanged: (sessionKey: string, reason: string, detail?: SessionChangeDetail) => void;
  approvals?: ExecApprovalBroker;
  services?: ToolServices;
  /** `/stop` cascades: returns how many sub-agents of the session were stopped. */
  onStop?: (sessionKey: string) => number;
  /** Rotates a transcript that grew too big; called after each turn. */
  maintenance?: { rotateIfLarge(sessionKey: string): boolean };
  streamModel?: StreamModelFn;
  /** Per-session turn changes (sub-agent sessions: minimal prompt, tool limits, model); read at each turn. */
  turnOverrides?: (sessionKey: string) => TurnOverrides | undefined;
  /** Records every run's trace (docs/traces.md); absent: none are kept. */
  tracer?: RunTracer;
  /** Tells the chat a session last talked in (a channel) something the runtime did, once per `key`. */
  notifyChat?: (sessionKey: string, text: string, key: string) => void;
  /** Internal hooks hear `/new`, `/reset`, `/stop`, automatic resets and compactions (docs/automation.md#internal-hooks). */
  hooks?: InternalHookSink;
  /** Notices waiting for a session's next message (reactions, post-compaction refreshes); absent: none are carried. */
  systemEvents?: SessionSystemEvents;
  /** Hears every message written to a session's transcript (`session.message` events). */
  onMessagesAppended?: MessagesAppended;
}

/** Messages a `command:new` / `command:reset` hook receives: the session's last ones, as text. */
const HOOK_MESSAGES = 15;

/**
 * Conversations: accept a message (persisted before it is acknowledged), run it on its
 * session's lane, stream its events, persist what the run produced, and answer duplicates from
 * the idempotency ledger so a re-sent key never runs twice — also after a restart. This class is
 * the front (`submit`, `abort`, `stop` and the readers); the histories live in `HistoryCache`,
 * the order of turns in `TurnQueue`, one turn's execution in `TurnRunner`.
 */
export class ConversationService implements ConversationPort {
  readonly runs = new RunRegistry();
  /** Sessions kept only until their turn has settled (SubmitInput.ephemeral). */
  private readonly ephemeralSessions = new Set<string>();
  /** Sessions a `/new` or `/reset` started over, by which, until their first turn starts. */
  private readonly freshStarts = new Map<string, StartupReason>();
  /** Per session, the progress card refresh waiting for a running turn or the lane: a second request while it waits joins it. */
  private readonly refreshesWaiting = new Map<string, string>();
  /** Control requests (progress card refreshes) for sessions' running turns. */
  private readonly control = new ControlSteering();
  private readonly lanes: LaneScheduler;
  private readonly streamModel: StreamModelFn;
  private readonly failover: ModelFailover;
  private readonly historyCache: HistoryCache;
  private readonly endings: RunEndings;
  private readonly queue: TurnQueue;
  /** Long sessions: pruning, compaction, memory flush (docs/sessions.md). */
  private readonly context: ContextMaintenance;
  /** What a session's next message carries in front of it: reactions, post-compaction refreshes. */
  private readonly notices: SessionNotices;
  private resolveFirstTurnEnded!: () => void;
  /** Settles when this process's first turn has ended (its model SDK loaded, its caches filled). */
  readonly firstTurnEnded = new Promise<void>((resolve) => (this.resolveFirstTurnEnded = resolve));

  /** The agent's auth profiles and their cooldowns, as this process's turns use them. */
  authProfiles(agentId: string): AuthProfileStore {
    return this.failover.store(agentId);
  }

  constructor(private readonly deps: ConversationDeps) {
    // Sub-agent sessions run on their own `subagent` lane, under their own cap.
    this.lanes = new LaneScheduler({
      maxConcurrent: deps.config().agents.defaults.maxConcurrent,
      pools: [{ name: "subagent", maxConcurrent: subagentMaxConcurrent(deps.config()), matches: isSubagentSessionKey }],
    });
    this.streamModel = deps.streamModel ?? createStreamModel();
    this.historyCache = new HistoryCache(deps.store, deps.onMessagesAppended);
    this.endings = new RunEndings({
      runs: this.runs,
      ledger: deps.ledger,
      sink: deps.sink,
      logger: deps.logger,
      forgetListener: (id) => this.queue.forgetListener(id),
      withdrawMessages: (sessionKey, runIds, reason) => this.historyCache.withdraw(sessionKey, runIds, reason),
    });
    const failover = new ModelFailover({ stateDir: deps.stateDir, log: deps.logger });
    this.failover = failover;
    this.notices = new SessionNotices({
      stateDir: deps.stateDir,
      config: deps.config,
      store: deps.store,
      logger: deps.logger,
      ...(deps.systemEvents ? { events: deps.systemEvents } : {}),
    });
    this.context = new ContextMaintenance({
      stateDir: deps.stateDir,
      config: deps.config,
      store: deps.store,
      logger: deps.logger,
      sink: deps.sink,
      runs: this.runs,
      history: this.historyCache,
      streamModel: this.streamModel,
      failover,
      services: deps.services,
      approvals: deps.approvals,
      turnOverrides: deps.turnOverrides,
      onSessionChanged: deps.onSessionChanged,
      ...(deps.notifyChat ? { notifyChat: deps.notifyChat } : {}),
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
      compacted: (sessionKey) => this.notices.compacted(sessionKey),
    });
    const runner = new TurnRunner({
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
      stateDir: deps.stateDir,
      config: deps.config,
      store: deps.store,
      logger: deps.logger,
      sink: deps.sink,
      runs: this.runs,
      endings: this.endings,
      history: this.historyCache,
      queue: { steeringPending: (key) => this.queue.steeringPending(key), takeSteering: (turn) => this.queue.takeSteering(turn) },
      control: this.control,
      streamModel: this.streamModel,
      failover,
      approvals: deps.approvals,
      services: deps.services,
      turnOverrides: deps.turnOverrides,
      maintenance: deps.maintenance,
      onSessionChanged: deps.onSessionChanged,
      onTurnEnded: () => this.resolveFirstTurnEnded(),
      context: this.context,
      onTurnSettled: (key) => this.discardIfEphemeral(key),
      takeFreshStart: (key) => {
        const reason = this.freshStarts.get(key);
        this.freshStarts.delete(key);
        return reason;
      },
      ...(deps.tracer ? { tracer: deps.tracer } : {}),
    });
    this.queue = new TurnQueue({
      lanes: this.lanes,
      runs: this.runs,
      endings: this.endings,
      sink: deps.sink,
      config: deps.config,
      logger: deps.logger,
      run: (turn, signal) => runner.run(turn, signal),
    });
  }

  /**
   * Load the providers of the configured models (with the SDKs they need up front) in the
   * background once the gateway is up, so the first conversation does not pay for importing
   * them (a few hundred ms).
   */
  warmUp(): void {
    const model = this.streamModel as Partial<StreamModel>;
    if (!model.warmUp) return;
    const config = this.deps.config();
    const apis = new Set(
      listConfiguredModels(config, process.env)
        .filter((m) => m.available)
        .map((m) => resolveModel(m.ref, config, process.env))
        .flatMap((r) => (r.ok ? [r.model.api] : [])),
    );
    model.warmUp(apis);
    // The default agent's workspace, bootstrap files and skills, read once now instead of by the first turn.
    void warmUpAgentContext(config, defaultAgentId(config), this.deps.stateDir, process.env).catch((err) =>
      this.deps.logger.warn({ err: (err as Error).message }, "agent workspace warm-up failed"),
    );
  }

  applyConfig(config: OpenClawConfig): void {
    this.lanes.setMaxConcurrent(config.agents.defaults.maxConcurrent);
    this.lanes.setPoolMaxConcurrent("subagent", subagentMaxConcurrent(config));
    this.queue.applyConfig(config);
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

    // An ACP session's turns run on its external agent (docs/acp.md), never on an embedded model.
    if (isAcpSessionKey(sessionKey)) {
      return {
        kind: "rejected",
        runId,
        sessionKey,
        reason: "acp-session",
        notice: `${sessionKey} is an ACP agent's session: its turns run on that agent. Steer it with /acp steer or the subagents tool.`,
      };
    }

    if (input.idempotencyKey !== undefined) {
      const begun = this.deps.ledger.begin(
        runId,
        { runId, sessionKey, method: input.method, ...(input.mergedKeys?.length ? { merged: input.mergedKeys } : {}) },
        { deferSync: true },
      );
      if (!begun.fresh) {
        const run = this.runs.get(runId);
        if (run) return { kind: "duplicate", runId, sessionKey: run.sessionKey, status: run.endedAt ? run.status : "in_flight", run };
        return {
          kind: "duplicate",
          runId,
          sessionKey: begun.record.sessionKey ?? sessionKey,
          status: (begun.record.status ?? "in_flight") as RunStatus,
          summary: begun.record.summary,
        };
      }
    }

    // A person's message, not one the runtime sent (heartbeats, announcements): only it ends an
    // idle or daily session, and only it counts as interaction for the idle reset.
    const runtime = input.internal !== undefined || (input.provenance !== undefined && input.provenance.kind !== "external_user");
    const entry = this.deps.store.peek(sessionKey);
    const resetPolicy =
      entry && resetSettingsFor(this.deps.config().session, { sessionKey, chatType: entry.chatType, channel: input.origin?.channel ?? entry.lastChannel ?? entry.channel });
    if (entry && !runtime && sessionResetDue(entry, resetPolicy, Date.now()) && !this.queue.busy(sessionKey)) {
      if (this.deps.hooks) this.emitSessionEnding(sessionKey, "session", "auto-reset", input.method);
      this.deps.store.reset(sessionKey);
      // As after /reset: clients hear of the new generation (and of the progress card it cleared).
      this.deps.onSessionChanged(sessionKey, "reset");
    }
    if (input.ephemeral && !this.deps.store.peek(sessionKey)) {
      this.deps.store.ensureOneOff(sessionKey, { agentId });
      this.ephemeralSessions.add(sessionKey);
    } else {
      // A new session's header goes to disk off the event loop: every path below acknowledges
      // only after whenDurable, which covers it.
      this.deps.store.ensure(sessionKey, { agentId }, { deferSync: true });
    }
    if (input.origin) this.recordOrigin(sessionKey, input.origin);
    const queueMode = input.queueMode ?? this.deps.store.peek(sessionKey)?.queueMode;
    if (!input.internal && this.queue.busy(sessionKey) && this.queue.refuses(sessionKey)) {
      // Refused by the full queue (drop: new): never written, so no later turn or history shows it.
      this.runs.create(runId, sessionKey, agentId, input.method);
      const offer = this.queue.offer(sessionKey, queueMode, { id: runId, text: input.message, receivedAt: Date.now() }, input.origin?.channel);
      const notice = offer.notice ?? "message refused: the session's queue is full";
      this.endings.endUnstarted(sessionKey, [runId], "error", notice, { neverWritten: true });
      return { kind: "rejected", runId, sessionKey, notice };
    }
    // Notices the session was waiting for (a reaction in its chat) go in front of the message.
    const carrying = this.notices.carry(sessionKey, input.message, input.ephemeral === true);
    const text = carrying.text;
    // Durable before anything is acknowledged: a crash after this point keeps the message (a
    // one-off session keeps nothing by design).
    this.historyCache.append(
      sessionKey,
      null,
      [
        {
          role: "user",
          content: text,
          timestamp: Date.now(),
          idempotencyKey: runId,
          provenance: input.provenance ?? {
            kind: "external_user",
            method: input.method,
            ...(input.origin ? { channel: input.origin.channel, accountId: input.origin.accountId, senderId: input.origin.senderId } : {}),
          },
          ...input.transcriptFields,
        },
      ],
      runtime ? undefined : { lastInteractionAt: Date.now() },
    );
    const onDisk = () =>
      input.idempotencyKey === undefined ? this.deps.store.whenDurable(sessionKey) : Promise.all([this.deps.ledger.whenDurable(), this.deps.store.whenDurable(sessionKey)]);
    // A scheduled job's message says so in its provenance; its trace is filed as a cron run.
    const run = this.runs.create(runId, sessionKey, agentId, input.provenance?.sourceTool === "cron" ? "cron" : input.method, input.origin && chatSendersOf(input.origin));
    if (input.onEvent) this.queue.listen(runId, input.onEvent);
    const senderIsOwner = input.senderIsOwner ?? true;
    // The message's own settings travel with it, also when it waits: its turn runs with them.
    const settings = messageTurnSettings(input.turnSettings);

    if (!this.queue.busy(sessionKey)) {
      const turn: Turn = {
        sessionKey,
        agentId,
        members: [runId],
        text,
        ...(input.images?.length ? { images: input.images } : {}),
        onEvents: input.onEvent ? [input.onEvent] : [],
        extraSystemPrompt: input.extraSystemPrompt,
        ...(settings ? { settings } : {}),
        senderIsOwner,
        channel: input.origin?.channel,
        runtime,
      };
      // The answer is the acknowledgement: the run's end-of-turn fsync covers the message too.
      if (input.acknowledgedWithAnswer) {
        this.queue.start(turn);
        return { kind: "accepted", run, queued: "started" };
      }
      // Hold the session now (later messages queue behind this one), but run only once the
      // message is on disk, so the acknowledgement always precedes the run's events.
      this.queue.hold(turn);
      try {
        await onDisk();
      } catch (err) {
        this.endings.finish([runId], "error", undefined, (err as Error).message);
        this.queue.turnEnded(sessionKey);
        throw err;
      }
      this.queue.start(turn);
      return { kind: "accepted", run, queued: "started" };
    }
    if (input.internal) {
      this.queue.addInternal(sessionKey, { runId, agentId, text, mergeable: input.internal.mergeable === true, senderIsOwner, ...(settings ? { settings } : {}) });
      await onDisk();
      return { kind: "accepted", run, queued: "queued" };
    }
    const offer = this.queue.offer(
      sessionKey,
      queueMode,
      {
        id: runId,
        text,
        receivedAt: Date.now(),
        meta: {
          agentId,
          senderIsOwner,
          channel: input.origin?.channel,
          ...(input.images?.length ? { images: input.images } : {}),
          ...(settings ? { turnSettings: settings } : {}),
        },
      },
      input.origin?.channel,
    );
    if (offer.action === "rejected") {
      const notice = offer.notice ?? "message refused: the session's queue is full";
      // The refused message is withdrawn from the history: its notices wait for the next message.
      carrying.refused();
      this.endings.endUnstarted(sessionKey, [runId], "error", notice);
      return { kind: "rejected", runId, sessionKey, notice };
    }
    await onDisk();
    return { kind: "accepted", run, queued: offer.action };
  }

  /** `/stop`: abort the session's runs and queue, and (through `onStop`) the sub-agents it spawned. */
  async stop(sessionKey: string): Promise<StopOutcome> {
    const runIds = this.abort(sessionKey);
    this.deps.hooks?.emit({ type: "command", action: "stop", sessionKey, context: { runIds } });
    const subagents = this.deps.onStop?.(sessionKey) ?? 0;
    await this.withdrawalsDurable(sessionKey);
    return { runIds, subagents };
  }

  reset(input: ResetInput): ResetOutcome {
    const { sessionKey } = input;
    if (input.idempotencyKey !== undefined) {
      const begun = this.deps.ledger.begin(input.idempotencyKey, { runId: input.idempotencyKey, sessionKey, method: input.method }, { deferSync: true });
      if (!begun.fresh) return { kind: "duplicate", status: (begun.record.status ?? "in_flight") as RunStatus, summary: begun.record.summary };
    }
    this.abort(sessionKey);
    // Chat commands only: a scheduled run's or a hook's fresh session is not news to hooks.
    if (this.deps.hooks && input.command) this.emitSessionEnding(sessionKey, "command", input.command, input.method);
    this.deps.store.reset(sessionKey);
    if (input.command) this.freshStarts.set(sessionKey, input.command);
    else this.freshStarts.delete(sessionKey);
    if (input.idempotencyKey !== undefined) this.deps.ledger.complete(input.idempotencyKey, { status: "ok", summary: "session reset" });
    this.deps.onSessionChanged(sessionKey, "reset");
    return { kind: "reset" };
  }

  announceNew(sessionKey: string, method: "sessions.create"): void {
    if (this.deps.hooks && this.deps.store.peek(sessionKey)) this.emitSessionEnding(sessionKey, "command", "new", method);
  }

  /**
   * `command:new` / `command:reset` / `session:auto-reset` for internal hooks, with the session's
   * last messages (before they are put aside).
   */
  private emitSessionEnding(sessionKey: string, type: "command" | "session", action: string, source: ResetInput["method"] | "sessions.create"): void {
    const agentId = parseSessionKey(sessionKey).agentId;
    const messages = this.history(sessionKey)
      .filter((m) => m.role === "user" || m.role === "assistant")
      .slice(-HOOK_MESSAGES)
      .map((m) => ({ role: m.role, text: messageText(m) }))
      .filter((m) => m.text.trim() !== "");
    const workspaceDir = resolveWorkspaceDir(this.deps.config(), agentId, this.deps.stateDir, process.env);
    this.deps.hooks!.emit({ type, action, sessionKey, context: { agentId, workspaceDir, messages, commandSource: source } });
  }

  /** Abort the session's active and queued runs; returns the run ids that were stopped. */
  abort(sessionKey: string, runId?: string): string[] {
    const targets = this.runs.activeFor(sessionKey).filter((r) => !runId || r.runId === runId);
    // One run's abort takes only its own message out of the queue; the others keep waiting.
    const queued = new Set(runId ? this.queue.withdraw(sessionKey, runId) : this.queue.clear(sessionKey));
    // Runs waiting in the inbox never started: they get their terminal events here. Everything
    // else (running, or queued on the lane) is aborted and ends through its own turn.
    for (const run of targets) if (!queued.has(run.runId)) this.runs.abort(run, new Error("aborted"));
    this.endings.endUnstarted(sessionKey, [...queued], "aborted", "aborted before it ran");
    return targets.map((r) => r.runId);
  }

  async abortDurably(sessionKey: string, runId?: string): Promise<string[]> {
    const runIds = this.abort(sessionKey, runId);
    await this.withdrawalsDurable(sessionKey);
    return runIds;
  }

  /**
   * The withdrawal markers an abort appended are group-committed with the session's other writes:
   * their fsync covers them. A failed fsync rejects with its errno, which callers describe as a
   * state-dir write failure.
   */
  private withdrawalsDurable(sessionKey: string): Promise<void> {
    return this.deps.store.whenDurable(sessionKey);
  }

  /**
   * `/compact [instructions]`, `sessions.compact`: summarize the session's older turns now. Runs
   * on the session's lane, after the turn in progress, so nothing writes to it meanwhile.
   */
  async compact(sessionKey: string, instructions?: string): Promise<CompactionResult> {
    if (!this.deps.store.peek(sessionKey)) return { ok: false, reason: `session not found: ${sessionKey}` };
    const result = await this.lanes.enqueue(sessionKey, (signal) => this.context.compactNow(sessionKey, instructions, signal));
    // Messages that arrived while the lane was held wait in the inbox: start them now.
    if (!this.queue.isActive(sessionKey)) this.queue.turnEnded(sessionKey);
    return result;
  }

  /**
   * `progressCard.refresh`. A turn of the session whose loop may still call the model takes the
   * request at its next model call, hidden (ControlSteering); the lane task queued behind that
   * turn runs the hidden refresh turn only when the turn ended without taking it. With no turn
   * running, the hidden refresh turn runs on the lane. A request while one waits joins it.
   */
  refreshProgressCard(sessionKey: string, agentId: string, runId: string): string {
    const waiting = this.refreshesWaiting.get(sessionKey);
    if (waiting) return waiting;
    this.refreshesWaiting.set(sessionKey, runId);
    const cardNow = () => visibleProgressCard(this.deps.store.peek(sessionKey)?.progressCard);
    const request: ControlRequest = {
      runId,
      source: PROGRESS_REFRESH_SOURCE,
      // The card as it is when the turn takes the request: the turn may have changed or cleared it.
      text: () => {
        const card = cardNow();
        if (!card) this.deps.logger.info({ sessionKey, runId }, "progress card refresh skipped: the card was cleared meanwhile");
        return card ? refreshRequest(card) : undefined;
      },
      onTaken: () => {
        this.refreshesWaiting.delete(sessionKey);
        this.deps.logger.info({ sessionKey, runId }, "progress card refresh taken by the running turn");
      },
    };
    const steered = this.control.offer(sessionKey, request);
    void this.lanes
      .enqueue(sessionKey, async (signal) => {
        // Taken by the turn that ran before this task: nothing is left to do.
        if (steered && !this.control.withdraw(sessionKey, request)) return;
        this.refreshesWaiting.delete(sessionKey);
        const card = cardNow();
        if (!card) return this.deps.logger.info({ sessionKey, runId }, "progress card refresh skipped: the card was cleared meanwhile");
        await runProgressRefreshTurn(
          {
            config: this.deps.config(),
            stateDir: this.deps.stateDir,
            store: this.deps.store,
            logger: this.deps.logger,
            streamModel: this.streamModel,
            failover: this.failover,
            ...(this.deps.services ? { services: this.deps.services } : {}),
            ...(this.deps.tracer ? { tracer: this.deps.tracer } : {}),
            sessionKey,
            agentId,
            runId,
            overrides: this.deps.turnOverrides?.(sessionKey),
            history: (tokenBudget) => this.historyCache.window(sessionKey, tokenBudget, new Set(this.runs.activeFor(sessionKey).map((r) => r.runId))),
            signal,
          },
          card,
        );
      })
      .catch((err: Error) => {
        if (steered) this.control.withdraw(sessionKey, request);
        this.refreshesWaiting.delete(sessionKey);
        this.deps.logger.warn({ sessionKey, runId, err: err.message }, "progress card refresh did not run");
      })
      .finally(() => {
        // Messages that arrived while the lane was held wait in the inbox: start them now.
        if (!this.queue.isActive(sessionKey)) this.queue.turnEnded(sessionKey);
      });
    return runId;
  }

  async inject(sessionKey: string, text: string): Promise<InjectOutcome> {
    if (!this.deps.store.peek(sessionKey)) return { ok: false, reason: "session not found" };
    try {
      return await this.lanes.enqueue(sessionKey, async () => {
        if (!this.deps.store.peek(sessionKey)) return { ok: false, reason: "session not found" } as const;
        const message = injectedAssistantMessage(text, Date.now());
        const [written] = this.historyCache.append(sessionKey, null, [message]);
        await this.deps.store.whenDurable(sessionKey);
        return { ok: true, messageId: written!.id, message } as const;
      });
    } finally {
      // Messages that arrived while the lane was held wait in the inbox: start them now.
      if (!this.queue.isActive(sessionKey)) this.queue.turnEnded(sessionKey);
    }
  }

  sideQuestion(sessionKey: string, question: string): Promise<SideAnswer> {
    return askSideQuestion(
      { store: this.deps.store, config: this.deps.config, streamModel: this.streamModel, failover: this.failover, history: (key) => this.history(key) },
      sessionKey,
      question,
    );
  }

  /** The review queue judge's model call (docs/traces.md#llm-judge): on this gateway's keys and cooldowns, not a run. */
  reviewJudgeCall(call: JudgeCall, signal: AbortSignal): Promise<JudgeAnswer> {
    return callReviewJudge({ config: this.deps.config, streamModel: this.streamModel, failover: this.failover }, call, signal);
  }

  /** The session's transcript messages, oldest first (read-only: callers must not mutate). */
  history(sessionKey: string): readonly TranscriptMessage[] {
    return this.historyCache.history(sessionKey);
  }

  /** The conversation as chat surfaces show it: questions before their answers. */
  entryIdOf(message: TranscriptMessage): string | undefined {
    return this.historyCache.entryIdOf(message);
  }

  displayHistory(sessionKey: string): TranscriptMessage[] {
    return this.historyCache.displayHistory(sessionKey);
  }

  /** True when this idempotency key was ever accepted (also before a restart). */
  hasAccepted(idempotencyKey: string): boolean {
    return this.deps.ledger.get(idempotencyKey) !== undefined;
  }

  acceptAnswer(idempotencyKey: string, run: { runId: string; sessionKey: string; method: string }): Promise<void> {
    const begun = this.deps.ledger.begin(idempotencyKey, run, { deferSync: true });
    if (begun.fresh) this.deps.ledger.complete(idempotencyKey, { status: "ok", summary: "answered the run's question" });
    return this.deps.ledger.whenDurable();
  }

  isActive(sessionKey: string): boolean {
    return this.queue.isActive(sessionKey);
  }

  fork(fromKey: string, toKey: string, maxTokens = FORK_MAX_TOKENS): ForkOutcome {
    const copy = forkedMessages(this.historyCache.window(fromKey, Number.POSITIVE_INFINITY, new Set()), maxTokens);
    if ("tooLong" in copy)
      return { forked: false, reason: `the conversation is about ${Math.round(copy.tooLong / 1000)}K tokens, over the ${Math.round(maxTokens / 1000)}K a fork copies` };
    if (copy.messages.length > 0) this.historyCache.append(toKey, null, copy.messages);
    return { forked: true, messages: copy.messages.length };
  }

  discard(sessionKey: string): boolean {
    this.ephemeralSessions.delete(sessionKey);
    this.freshStarts.delete(sessionKey);
    this.historyCache.forget(sessionKey);
    return this.deps.store.discard(sessionKey);
  }

  private discardIfEphemeral(sessionKey: string): void {
    if (!this.ephemeralSessions.has(sessionKey)) return;
    try {
      this.discard(sessionKey);
    } catch (err) {
      this.deps.logger.warn({ sessionKey, err: (err as Error).message }, "one-off session not removed");
    }
  }

  /** The gateway stops: waiting messages end unanswered, running turns are aborted and persist what they have. */
  async drain(): Promise<void> {
    this.queue.stop();
    for (const run of this.runs.all()) if (!run.endedAt) this.runs.abort(run, new GatewayStoppingError());
    await this.lanes.drain();
  }

  /** The session's last inbound route: where its channel conversation lives. */
  private recordOrigin(sessionKey: string, origin: ChannelOrigin): void {
    const entry = this.deps.store.peek(sessionKey);
    if (
      entry?.lastChannel === origin.channel &&
      entry.lastTo === origin.to &&
      entry.lastAccountId === origin.accountId &&
      entry.lastThreadId === origin.threadId &&
      entry.lastChatType === origin.chatType
    ) {
      // Only the message changed: the route on disk is still right, so no durable write for it.
      if (entry.lastMessageId !== origin.messageId) this.deps.store.patch(sessionKey, { lastMessageId: origin.messageId ?? null });
      return;
    }
    this.deps.store.patch(
      sessionKey,
      {
        channel: entry?.channel ?? origin.channel,
        chatType: entry?.chatType ?? origin.chatType,
        origin: entry?.origin ?? {
          provider: origin.channel,
          surface: origin.channel,
          chatType: origin.chatType,
          from: origin.senderId,
          to: origin.to,
          accountId: origin.accountId,
          ...(origin.threadId ? { threadId: origin.threadId } : {}),
          ...(origin.senderName ? { label: origin.senderName } : {}),
        },
        lastChannel: origin.channel,
        lastTo: origin.to,
        lastAccountId: origin.accountId,
        lastThreadId: origin.threadId,
        lastChatType: origin.chatType,
        lastMessageId: origin.messageId ?? null,
      },
      { durable: true },
    );
  }
}

/** The chat senders a channel message's run was started by. */
function chatSendersOf(origin: ChannelOrigin): ChatSenders {
  const ids = origin.senderIds ?? [origin.senderId];
  return { senders: [...new Set(ids)].map((id) => `${origin.channel}:${id}`), ...(origin.senderName ? { name: origin.senderName } : {}) };
}
