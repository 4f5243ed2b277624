import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import { runEmbeddedTurn, type TurnOverrides } from "../agents/embedded-turn.js";
import type { StartupReason } from "../agents/context/startup-context.js";
import type { HeartbeatReport, ModelMessage, RunResult, StreamModelFn, ToolServices, TranscriptMessage, UserMessage } from "../agents/types.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { ModelFailover } from "../models/failover/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { HistoryCache } from "./history-cache.js";
import { noReplyError, type RunEndings } from "./run-endings.js";
import { createRunEventBridge, finishAnsweredRun, type RunEventSink } from "./run-event-bridge.js";
import type { RunRecord, RunRegistry, RunStatus } from "./run-registry.js";
import { sessionTurnSettings } from "./session-turn-settings.js";
import type { Turn, TurnQueue } from "./turn-queue.js";
import type { ContextMaintenance } from "./context-maintenance.js";
import type { RunTracer } from "../traces/index.js";
import { traceSource } from "./trace-source.js";
import { estimateCostUsd, modelCostRates } from "../models/model-cost.js";
import { replyUsageFooter, withFooter } from "./response-usage.js";
import { sessionUsagePatch } from "./session-usage.js";
import { activeGoalContextLine, goalAfterTurn, type SessionGoal } from "../sessions/goal/index.js";
import type { SessionChangeDetail } from "../agents/conversation-port.js";
import type { InternalHookSink } from "../hooks/internal/types.js";
import { bootstrapHookFor } from "./bootstrap-hook.js";
import { cutByShutdown, GatewayStoppingError } from "./shutdown-endings.js";
import { controlSteeringMessage, type ControlSteering } from "./control-steering.js";

export interface TurnRunnerDeps {
  /** Internal hooks: `agent:bootstrap` may change a turn's bootstrap files. */
  hooks?: InternalHookSink;
  stateDir: string;
  config(): OpenClawConfig;
  store: SessionStore;
  logger: Logger;
  sink: RunEventSink;
  runs: RunRegistry;
  endings: RunEndings;
  history: HistoryCache;
  queue: Pick<TurnQueue, "steeringPending" | "takeSteering">;
  /** Control requests (progress card refreshes) a running turn takes at its next model call. */
  control: ControlSteering;
  streamModel: StreamModelFn;
  /** Auth profiles, session key pins and fallback notices, shared by every turn. */
  failover: ModelFailover;
  approvals?: ExecApprovalBroker;
  services?: ToolServices;
  /** Per-session turn changes (sub-agent sessions: minimal prompt, tool limits, model); read at each turn. */
  turnOverrides?: (sessionKey: string) => TurnOverrides | undefined;
  /** Rotates a transcript that grew too big; called after each turn. */
  maintenance?: { rotateIfLarge(sessionKey: string): boolean };
  /** Tells clients a session's row changed (`sessions.changed`). */
  onSessionChanged(sessionKey: string, reason: string, detail?: SessionChangeDetail): void;
  /** Called after every turn, once what it wrote is durable and its runs have ended. */
  onTurnEnded(): void;
  /** The turn and its after-work (compaction, memory flush) are over: nothing more is written. */
  onTurnSettled(sessionKey: string): void;
  /** Long sessions: pruning before the history is taken, compaction on overflow and after the turn. */
  context: ContextMaintenance;
  /** Once, for the first turn after `/new` or `/reset`: what reset the session (the turn is offered the recent daily notes). */
  takeFreshStart(sessionKey: string): StartupReason | undefined;
  /** Records the run's trace from its events (docs/traces.md). */
  tracer?: RunTracer;
}

/**
 * Runs one turn: the agent loop with the session's history and steering, its events bridged to
 * clients, what it produces appended as it comes, then the session's token counts and the runs'
 * outcomes recorded once the transcript is durable.
 */
export class TurnRunner {
  constructor(private readonly deps: TurnRunnerDeps) {}

  async run(turn: Turn, laneSignal: AbortSignal): Promise<void> {
    const { deps } = this;
    const { sessionKey, agentId } = turn;
    const primary = turn.members[turn.members.length - 1]!;
    const controller = new AbortController();
    // The turn stops for the first reason given: a user's stop, or the gateway's (GatewayStoppingError).
    const abortFor = (reason: unknown) => controller.abort(reason instanceof GatewayStoppingError ? reason : new Error("aborted"));
    const onLaneAbort = (event: Event) => abortFor((event.target as AbortSignal).reason);
    laneSignal.addEventListener("abort", onLaneAbort, { once: true });
    // Every member run's abort stops the turn. The callbacks are taken back when the turn ends:
    // finished runs stay in the registry for a while, and a callback left behind would keep the
    // whole turn (request, SDK stream, buffers) alive with them.
    const watched: RunRecord[] = [];
    const watchRun = (id: string) => {
      const run = deps.runs.get(id);
      if (!run) return;
      run.onAbort = abortFor;
      watched.push(run);
      // A run aborted while it waited for a lane slot was stopped before the turn listened.
      if (run.abortReason) abortFor(run.abortReason);
    };
    for (const id of turn.members) {
      deps.runs.markRunning(id);
      watchRun(id);
    }
    const previousOnSteered = turn.onSteered;
    turn.onSteered = (ids) => {
      previousOnSteered?.(ids);
      ids.forEach(watchRun);
    };
    const store = deps.store;
    store.claimWriter(sessionKey, primary);
    const bridge = createRunEventBridge({ runId: primary, sessionKey, agentId, sink: deps.sink });
    const trace = deps.tracer?.begin({
      runId: primary,
      sessionKey,
      agentId,
      source: traceSource(deps.runs.get(primary)?.method, sessionKey, turn.runtime === true),
      input: turn.text,
    });
    // The first assistant message after a prompt records which messages it answers.
    let unanswered = [...turn.members];
    const watchSteered = turn.onSteered;
    turn.onSteered = (ids) => {
      watchSteered?.(ids);
      unanswered.push(...ids);
    };

    let result: RunResult & {
      model?: string;
      modelNotice?: string;
      toolSummary?: string;
      reasoning?: string;
      privateFinal?: true;
      heartbeatReport?: HeartbeatReport;
      contextWindow?: number;
      systemPromptChars?: number;
      workspaceDir?: string;
    };
    // Persisted when taken, hidden from chat: the model sees it from this call on.
    const takeControl = (): UserMessage[] =>
      deps.control.take(sessionKey).map((request) => {
        const message = controlSteeringMessage(request);
        deps.history.append(sessionKey, primary, [message]);
        return { role: "user", content: request.text, timestamp: message.timestamp };
      });
    deps.control.opened(sessionKey);
    try {
      result = await runEmbeddedTurn({
        config: deps.config(),
        stateDir: deps.stateDir,
        env: process.env,
        message: turn.text,
        ...goalContextFor(store.peek(sessionKey)?.goal, turn.settings?.heartbeat === true),
        ...(turn.images ? { images: turn.images } : {}),
        agentId,
        runId: primary,
        extraSystemPrompt: turn.extraSystemPrompt,
        startedBy: deps.takeFreshStart(sessionKey),
        senderIsOwner: turn.senderIsOwner,
        ...(turn.channel ? { channel: turn.channel } : {}),
        sessionKey,
        failover: deps.failover,
        ...sessionTurnSettings(store.peek(sessionKey)),
        ...turn.settings,
        // Last, so a sub-agent's frozen sender policy and limits win over the turn's defaults.
        ...deps.turnOverrides?.(sessionKey),
        ...withBootstrapHook(bootstrapHookFor(deps.hooks, deps.logger)),
        controller,
        services: deps.services,
        approvals: deps.approvals,
        streamModel: deps.streamModel,
        emit: (event) => {
          bridge.onEvent(event);
          trace?.event(event);
          for (const listener of turn.onEvents) listener(event);
        },
        history: (tokenBudget, contextWindow) =>
          deps.history.window(
            sessionKey,
            tokenBudget,
            new Set(deps.runs.activeFor(sessionKey).map((r) => r.runId)),
            (window) => deps.context.prune(sessionKey, window, contextWindow),
            turn.settings?.userTurnLimit,
          ),
        onContextOverflow: () =>
          deps.context.compactOnOverflow(sessionKey, primary, (event) => {
            bridge.onEvent(event);
            trace?.event(event);
            for (const listener of turn.onEvents) listener(event);
          }),
        onWarning: (message) => deps.context.warnOnce(message),
        steering: {
          pending: () => deps.queue.steeringPending(sessionKey),
          take: () => [...deps.queue.takeSteering(turn), ...takeControl()],
        },
        // Steering messages were persisted when they arrived (control requests when taken); everything else is persisted now.
        onAppend: (message) => {
          if (message.role === "user") return;
          if (message.role === "assistant" && unanswered.length > 0) {
            deps.history.append(sessionKey, primary, [withAnswers(message, unanswered, primary)]);
            unanswered = [];
          } else deps.history.append(sessionKey, primary, [message as TranscriptMessage]);
        },
      });
    } catch (err) {
      const message = (err as Error).message;
      deps.logger.error({ sessionKey, runId: primary, err: message }, "agent turn crashed");
      result = noReplyError(primary, message);
    } finally {
      deps.control.closed(sessionKey);
      laneSignal.removeEventListener("abort", onLaneAbort);
      for (const run of watched) if (run.onAbort === abortFor) run.onAbort = undefined;
    }
    if (result.stopReason === "aborted" && controller.signal.reason instanceof GatewayStoppingError) result = cutByShutdown(result);
    // What the run wrote is on disk before anyone is told the run is over; a run whose
    // transcript could not be synced is not reported as a success.
    const notSynced = await store.whenDurable(sessionKey).then(
      () => undefined,
      (err: Error) => err,
    );
    if (notSynced) {
      deps.logger.error({ sessionKey, err: notSynced.message }, "transcript sync failed");
      result = unsavedResult(result, notSynced);
    }
    const costUsd = estimateCostUsd(result.usage, modelCostRates(result.model, deps.config()));
    const status = runStatus(result);
    const footer = replyUsageFooter(
      { method: deps.runs.get(primary)?.method, channel: turn.channel, sessionValue: store.peek(sessionKey)?.responseUsage, ok: status === "ok" },
      deps.config(),
      result.usage,
      costUsd,
    );
    if (footer) result = { ...result, payloads: withFooter(result.payloads, footer) };
    bridge.finish(result);
    // The other runs this turn answered (merged or steered into it) end after the reply is out.
    for (const id of turn.members) if (id !== primary && !deps.runs.get(id)?.endedAt) finishAnsweredRun({ runId: id, sessionKey, agentId, sink: deps.sink }, result);
    trace?.end({ result, outcome: status });
    const contextTokens = deps.context.contextTokens(sessionKey, result.systemPromptChars);
    try {
      const entry = store.peek(sessionKey);
      const usage = sessionUsagePatch(entry, result.usage, costUsd);
      store.patch(sessionKey, {
        ...(contextTokens !== undefined ? { contextTokens } : {}),
        updatedAt: Date.now(),
        ...usage,
        ...goalPatch(entry?.goal, usage.totalTokens ?? 0, status, result),
        abortedLastRun: status === "aborted",
        ...(result.model ? { model: result.model } : {}),
      });
      store.releaseWriter(sessionKey, primary);
    } catch (err) {
      deps.logger.warn({ sessionKey, err: (err as Error).message }, "session metadata not updated");
    }
    deps.endings.finish(turn.members, status, result);
    // A rotated transcript starts over with recent history only; re-read it next time.
    if (deps.maintenance?.rotateIfLarge(sessionKey)) deps.history.forget(sessionKey);
    deps.onSessionChanged(sessionKey, "run-ended", { runIds: turn.members, phase: status === "error" || status === "timeout" ? "error" : "end" });
    deps.onTurnEnded();
    await deps.context.afterTurn(turn, { ok: status === "ok", ...pick(result) }, contextTokens, bridge);
    deps.onTurnSettled(sessionKey);
  }
}

/** The active-goal line for a user's turn (a heartbeat is not one); nothing for a session without an active goal. */
function goalContextFor(goal: SessionGoal | undefined, heartbeat: boolean): { goalContext?: string } {
  const line = heartbeat ? undefined : activeGoalContextLine(goal);
  return line ? { goalContext: line } : {};
}

/**
 * The session's goal after a turn (goalAfterTurn): its tokens counted, and paused with the error
 * as its note when the turn failed or timed out. Nothing for a session without a goal.
 */
function goalPatch(goal: SessionGoal | undefined, totalTokens: number, status: RunStatus, result: RunResult): { goal?: SessionGoal } {
  if (!goal) return {};
  const failure = status === "error" || status === "timeout" ? (result.error?.message ?? `the turn ended: ${status}`) : undefined;
  const next = goalAfterTurn(goal, totalTokens, Date.now(), failure);
  return next === goal ? {} : { goal: next };
}

function unsavedResult<T extends RunResult>(result: T, err: Error): T {
  const message = `the session transcript could not be synced to disk (${err.message}); check that the state dir's disk is writable and not full`;
  return { ...result, stopReason: "error", error: { kind: "unknown", message } };
}

function pick(result: { contextWindow?: number; systemPromptChars?: number; workspaceDir?: string; model?: string }) {
  const { contextWindow, systemPromptChars, workspaceDir, model } = result;
  return { contextWindow, systemPromptChars, workspaceDir, model };
}

function runStatus(result: RunResult): Exclude<RunStatus, "queued" | "running"> {
  // `toolUse`: the run handed client tool calls to its caller, which is how such a run ends well.
  if (result.stopReason === "stop" || result.stopReason === "length" || result.stopReason === "toolUse") return "ok";
  if (result.stopReason === "timeout" || result.stopReason === "aborted") return result.stopReason;
  return "error";
}

/**
 * The assistant message with the idempotency keys it answers and the turn's run (`runId`, the
 * last of the turn's own messages, whatever was steered in later: its trace's id). Not `{ ...message, answers }`:
 * once optimized, V8 (Node 20) gives every object built by that spread its own hidden class,
 * about 400 bytes each that a session's cached history keeps for every turn. Copying into a
 * fresh literal walks the shared transition tree instead.
 */
function withAnswers(message: ModelMessage, answers: string[], runId: string): TranscriptMessage {
  return Object.assign({}, message, { answers, runId }) as unknown as TranscriptMessage;
}

function withBootstrapHook(hook: ReturnType<typeof bootstrapHookFor>): { bootstrapHook?: NonNullable<ReturnType<typeof bootstrapHookFor>> } {
  return hook ? { bootstrapHook: hook } : {};
}
