import { TOOL_ERRORS } from "../tool-errors.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import { isSubagentSessionKey, parseSessionKey, subagentDepth } from "../../sessions/keys/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import type { TurnOverrides } from "../embedded-turn.js";
import type { TranscriptMessage } from "../types.js";
import { maySpawnAtDepth } from "../policy/subagent-tool-limits.js";
import type { SessionsSpawnArgs, SessionToolCaller } from "../tools/index.js";
import { taskLabel } from "./announce-format.js";
import { AnnouncementRound } from "./announcement-round.js";
import { endsWithFinalAnswer, latestReply } from "./child-transcript.js";
import type { AgentConversations, ConversationRun } from "../conversation-port.js";
import { removeAttachments } from "./attachments.js";
import { isRefusal, prepareSpawn } from "./prepare-spawn.js";
import type { SpawnRefusal } from "./spawn-checks.js";
import { resolveSubagentSettings } from "./subagent-config.js";
import { spawnTargets, type SpawnTargets } from "./spawn-targets.js";
import { subagentContextBlock, subagentSteerMessage } from "./subagent-prompt.js";
import { isOwed, SubagentRegistry } from "./subagent-registry.js";
import { threadTitle, type SubagentThreadPort } from "./thread-port.js";
import { MAX_STEER_MESSAGE_CHARS, STEER_ABORT_SETTLE_TIMEOUT_MS, STEER_RATE_LIMIT_MS, type SubagentOutcome, type SubagentRunRecord } from "./types.js";
import type { AcpChildPort, AcpChildRun } from "./acp-child-port.js";
import { prepareAcpSpawn } from "./prepare-acp-spawn.js";
import { sleep as delay } from "../../infra/sleep.js";
import type { TaskRecorder } from "../../tasks/index.js";
import { subagentTaskEnd, subagentTaskStart } from "./subagent-task.js";

export interface SubagentServiceDeps {
  stateDir: string;
  config: () => OpenClawConfig;
  store: SessionStore;
  conversations: AgentConversations;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /**
   * An announcement was accepted into `sessionKey` as `run`. Whatever delivers that session's
   * replies to a chat (channels) hooks in here to deliver this run's reply too.
   */
  onAnnouncementAccepted?: (sessionKey: string, run: ConversationRun) => void;
  /** Chat threads for `thread: true` children; without it such spawns are refused. */
  threads?: SubagentThreadPort;
  /** External ACP agents for `runtime: "acp"` children; without it such spawns are refused. */
  acp?: AcpChildPort;
  /** The background task ledger: each spawn is a task, ended with its first round. */
  tasks?: TaskRecorder;
}

export interface SpawnAccepted {
  status: "accepted";
  runId: string;
  childSessionKey: string;
  mode: "run" | "session";
  runtime?: "acp";
  resolvedModel?: string;
  warnings?: string[];
}

export type SteerOutcome = { ok: true; restarted: boolean; settled: boolean } | { ok: false; refusal: SpawnRefusal };

const ARCHIVE_SWEEP_MS = 60_000;
const INTERRUPTED = "the run was interrupted by a gateway restart before it finished";

/**
 * Sub-agents (see docs/subagents.md): spawn a child into its own session and lane, watch its runs,
 * and when its round settles — its runs ended and its own children reported in — freeze the result
 * and push one announcement into the requester's session as its next turn. Everything a restart
 * must not lose is in the registry; announcements are delivered exactly once by idempotency key.
 */
export class SubagentService {
  readonly registry: SubagentRegistry;
  private readonly announcements: AnnouncementRound;
  private readonly now: () => number;
  private archiveTimer?: NodeJS.Timeout;
  private stopped = false;
  /** ACP children's unfinished turns, and the reply of each one's last finished turn. */
  private readonly acpRunning = new Map<string, number>();
  private readonly acpReplies = new Map<string, string>();

  constructor(private readonly deps: SubagentServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.registry = new SubagentRegistry(deps.stateDir, { onWarning: (message) => deps.logger.warn(message) });
    this.announcements = new AnnouncementRound({
      config: deps.config,
      store: deps.store,
      conversations: deps.conversations,
      registry: this.registry,
      logger: deps.logger,
      now: this.now,
      stopped: () => this.stopped,
      onAccepted: deps.onAnnouncementAccepted,
      onAnswerRunEnded: (requesterSessionKey, run) => {
        const requester = this.registry.forChild(requesterSessionKey);
        if (requester) this.countRun(requester, run);
      },
      onSettled: (record) => this.afterAnnouncementSettled(record),
    });
  }

  /** Loads the registry and picks up what the last process left: open rounds, owed announcements. */
  start(): void {
    this.registry.load();
    const records = this.registry.all();
    for (const record of records) delete record.steering;
    // Children first, so a parent sees which of its children still owe it a result.
    for (const record of [...records].sort((a, b) => b.depth - a.depth)) if (record.roundOpen) this.recoverRound(record);
    for (const record of records) {
      // An accepted announcement whose requester turn never finished is offered again: the
      // requester's ledger recognises the key, and it is asked to answer again.
      if (record.announce?.state === "accepted") record.announce.state = "pending";
      if (record.announce?.state === "pending") this.announcements.resume(record);
    }
    this.registry.changed();
    this.archiveTimer = setInterval(() => this.sweep(), ARCHIVE_SWEEP_MS);
    this.archiveTimer.unref();
  }

  /** Stops reacting before the conversations drain: runs aborted by the shutdown stay open for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.archiveTimer);
    this.announcements.stop();
    await this.registry.whenDurable();
  }

  /** How a sub-agent session's turns differ from a main session's (minimal prompt, limits, frozen model and sender). */
  turnOverrides(sessionKey: string): TurnOverrides | undefined {
    const depth = subagentDepth(sessionKey);
    if (depth === 0) return undefined;
    const record = this.registry.forChild(sessionKey);
    if (!record) return { spawnDepth: depth };
    const canSpawn = maySpawnAtDepth(depth, this.deps.config().agents.defaults.subagents?.maxSpawnDepth);
    return {
      spawnDepth: depth,
      promptMode: "minimal",
      extraSystemPrompt: subagentContextBlock(record, canSpawn),
      senderIsOwner: record.senderIsOwner,
      ...(record.model ? { modelOverride: record.model } : {}),
      ...(record.runTimeoutSeconds ? { timeoutSeconds: record.runTimeoutSeconds } : {}),
    };
  }

  /** Any run of `sessionKey` ended (also ones nobody here started, e.g. an operator's chat.send into a child). */
  onSessionRunEnded(sessionKey: string): void {
    if (!isSubagentSessionKey(sessionKey)) return;
    queueMicrotask(() => {
      const record = this.registry.forChild(sessionKey);
      if (record) this.settle(record);
    });
  }

  /** The agents this caller may spawn as (agents_list). */
  spawnTargets(caller: SessionToolCaller): SpawnTargets {
    return spawnTargets(this.deps.config(), {
      agentId: caller.agentId,
      depth: subagentDepth(caller.sessionKey),
      inheritedModel: this.registry.forChild(caller.sessionKey)?.model,
    });
  }

  /**
   * The caller's children whose result is still to come into its session: their round is open, or
   * its announcement is waiting to be handed over. A turn may end to wait for these (sessions_yield).
   * An announcement already accepted is not counted: the turn asking may be the one answering it.
   */
  awaitedChildren(sessionKey: string): SubagentRunRecord[] {
    return this.registry.childrenOf(sessionKey).filter((r) => !r.suppressReason && (r.roundOpen || r.announce?.state === "pending"));
  }

  async spawn(caller: SessionToolCaller, args: SessionsSpawnArgs): Promise<SpawnAccepted | SpawnRefusal> {
    if (this.stopped) return TOOL_ERRORS.gatewayStopping();
    if (args.runtime === "acp") return this.spawnAcp(caller, args);
    if (args.thread) {
      const refusal = this.deps.threads ? this.deps.threads.check(caller.sessionKey) : NO_THREADS;
      if (refusal) return refusal;
    }
    const prepared = prepareSpawn(caller, args, {
      config: this.deps.config(),
      stateDir: this.deps.stateDir,
      env: this.deps.env ?? process.env,
      now: this.now(),
      activeChildren: this.registry.childrenOf(caller.sessionKey).filter((r) => !r.endedAt).length,
      inheritedModel: this.registry.forChild(caller.sessionKey)?.model,
    });
    if (isRefusal(prepared)) return prepared;
    const { record, taskMessage } = prepared;
    if (args.thread) {
      const thread = await this.deps.threads!.open(caller.sessionKey, threadTitle(record.task, record.label));
      if (isRefusal(thread)) {
        removeAttachments(prepared.attachments.workspaceDir, prepared.attachments.files);
        return thread;
      }
      record.thread = thread;
    }
    const { store } = this.deps;
    const entry = store.ensure(record.childSessionKey, {
      agentId: record.agentId,
      spawnedBy: record.requesterSessionKey,
      ...(record.label ? { label: record.label } : {}),
      ...(record.model ? { modelOverride: record.model } : {}),
      ...(record.thinking ? { thinkingLevel: record.thinking } : {}),
      // The thread is where the child's conversation lives: its replies go there.
      ...(record.thread ? { lastChannel: record.thread.channel, lastTo: record.thread.chatId, lastAccountId: record.thread.accountId, lastThreadId: record.thread.threadId } : {}),
    });
    store.patch(record.childSessionKey, { spawnDepth: record.depth });
    record.childSessionId = entry.sessionId;
    if (spawnContext(this.deps.config(), args) === "fork") {
      const fork = this.deps.conversations.fork(caller.sessionKey, record.childSessionKey);
      if (!fork.forked) prepared.warnings.push(`context "fork": ${fork.reason}; the sub-agent starts with the task alone.`);
    }
    // On disk before the child starts: a crash from here on still ends in an announcement.
    this.registry.add(record);
    await this.registry.whenDurable();
    this.deps.tasks?.started(subagentTaskStart(record));
    if (record.thread) this.deps.threads!.bind(record.thread, record.childSessionKey, taskLabel(record));
    try {
      const outcome = await this.deps.conversations.submit({
        sessionKey: record.childSessionKey,
        idempotencyKey: record.runId,
        message: taskMessage,
        method: "agent",
        internal: {},
        provenance: { kind: "inter_session", sourceSessionKey: caller.sessionKey, originSessionId: store.get(caller.sessionKey)?.sessionId, sourceTool: "sessions_spawn" },
        senderIsOwner: record.senderIsOwner,
      });
      if (outcome.kind !== "accepted") throw new Error(outcome.kind === "rejected" ? outcome.notice : `the child session refused the task (${outcome.kind})`);
      this.trackRun(record, outcome.run);
    } catch (err) {
      record.lastRunStatus = "error";
      record.lastError = `the sub-agent could not start: ${(err as Error).message}`;
      this.registry.changed();
      this.settle(record);
      return TOOL_ERRORS.spawnFailed(record.lastError);
    }
    return {
      status: "accepted",
      runId: record.runId,
      childSessionKey: record.childSessionKey,
      mode: record.spawnMode,
      ...(record.model ? { resolvedModel: record.model } : {}),
      ...(prepared.warnings.length > 0 ? { warnings: prepared.warnings } : {}),
    };
  }

  /**
   * A child on an external ACP agent: the same limits, registry, rounds and announcement as an
   * embedded child, but its turns run in the ACP control plane. Accepted once its record (and
   * the ACP session's) is on disk; the agent starts in the background.
   */
  private async spawnAcp(caller: SessionToolCaller, args: SessionsSpawnArgs): Promise<SpawnAccepted | SpawnRefusal> {
    if (args.thread) {
      const refusal = this.deps.threads ? this.deps.threads.check(caller.sessionKey) : NO_THREADS;
      if (refusal) return refusal;
    }
    const prepared = prepareAcpSpawn(caller, args, {
      acp: this.deps.acp,
      config: this.deps.config(),
      now: this.now(),
      activeChildren: this.registry.childrenOf(caller.sessionKey).filter((r) => !r.endedAt).length,
    });
    if (isRefusal(prepared)) return prepared;
    const { record, task } = prepared;
    if (args.thread) {
      const thread = await this.deps.threads!.open(caller.sessionKey, threadTitle(record.task, record.label));
      if (isRefusal(thread)) {
        this.deps.acp!.close(record.childSessionKey, "its thread could not be opened");
        return thread;
      }
      record.thread = thread;
    }
    const entry = this.deps.store.ensure(record.childSessionKey, {
      agentId: record.agentId,
      spawnedBy: record.requesterSessionKey,
      ...(record.label ? { label: record.label } : {}),
      ...(record.thread ? { lastChannel: record.thread.channel, lastTo: record.thread.chatId, lastAccountId: record.thread.accountId, lastThreadId: record.thread.threadId } : {}),
    });
    this.deps.store.patch(record.childSessionKey, { spawnDepth: record.depth });
    record.childSessionId = entry.sessionId;
    // On disk before the agent starts: a crash from here on still ends in an announcement.
    this.registry.add(record);
    await this.registry.whenDurable();
    this.deps.tasks?.started(subagentTaskStart(record));
    if (record.thread) this.deps.threads!.bind(record.thread, record.childSessionKey, taskLabel(record));
    this.trackAcpRun(record, this.deps.acp!.run({ sessionKey: record.childSessionKey, text: task, mode: "prompt", ...acpTurnOptions(record) }));
    return { status: "accepted", runId: record.runId, childSessionKey: record.childSessionKey, mode: record.spawnMode, runtime: "acp" };
  }

  private trackAcpRun(record: SubagentRunRecord, run: AcpChildRun): void {
    const key = record.childSessionKey;
    this.acpRunning.set(key, (this.acpRunning.get(key) ?? 0) + 1);
    void run.done.then((result) => {
      this.acpRunning.set(key, (this.acpRunning.get(key) ?? 1) - 1);
      const current = this.registry.get(record.runId);
      if (!current || this.stopped) return;
      current.runs.total += 1;
      if (result.status === "ok") current.runs.ok += 1;
      else if (result.status !== "aborted") current.runs.failed += 1;
      current.accumulatedRuntimeMs += result.durationMs;
      current.lastRunStatus = result.status;
      if (result.error) current.lastError = result.error;
      else delete current.lastError;
      if (result.usage) current.tokens = { input: (current.tokens?.input ?? 0) + result.usage.input, output: (current.tokens?.output ?? 0) + result.usage.output };
      if (result.status === "ok") this.acpReplies.set(key, result.text);
      this.registry.changed();
      // A thread-bound child talks in its thread: each reply goes there as it comes.
      if (current.thread && result.status === "ok" && result.text.trim())
        this.deps.threads?.deliverText(current.thread, result.text, `acp-thread:${current.runId}:${current.runs.total}`);
      this.settle(current);
    });
  }

  /**
   * `/stop` in a session cascades: every unfinished child of it is killed with its whole tree.
   * Nothing is announced back: the user asked the session to stop, and an announcement would start
   * it again. Returns the killed records.
   */
  stopChildrenOf(sessionKey: string): SubagentRunRecord[] {
    const killed: SubagentRunRecord[] = [];
    for (const child of this.registry.childrenOf(sessionKey)) {
      if (child.endedAt) continue;
      child.suppressReason = "the requester was stopped with /stop";
      killed.push(...this.kill(child));
    }
    return killed;
  }

  /** Kills the child and everything below it; only the killed child itself announces (outcome `killed`). */
  kill(record: SubagentRunRecord): SubagentRunRecord[] {
    if (record.endedAt) return [];
    const tree = [record, ...this.registry.descendantsOf(record.childSessionKey)].filter((r) => !r.endedAt);
    for (const r of tree) {
      r.killRequested = true;
      delete r.steering;
      if (r !== record) r.suppressReason = "an ancestor was killed";
    }
    this.registry.changed();
    for (const r of [...tree].reverse()) {
      if (r.runtime === "acp") this.deps.acp?.close(r.childSessionKey, "killed");
      else this.deps.conversations.abort(r.childSessionKey);
    }
    for (const r of tree) {
      if (r.roundOpen) queueMicrotask(() => this.settle(r));
      else this.endIdle(r, "killed");
    }
    return tree;
  }

  /**
   * Redirects a child (`subagents steer`): its current run is aborted (given up to 5 s to stop) and
   * the new instructions run as its next turn. An idle session-mode child starts a new round.
   */
  async steer(record: SubagentRunRecord, message: string, from: string): Promise<SteerOutcome> {
    const text = message.trim();
    if (record.endedAt) return refused(TOOL_ERRORS.subagentEnded(record.outcome ?? "ended"));
    if (!text) return refused(TOOL_ERRORS.steerEmpty());
    if (text.length > MAX_STEER_MESSAGE_CHARS) return refused(TOOL_ERRORS.steerTooLong(text.length, MAX_STEER_MESSAGE_CHARS));
    const since = this.now() - (record.lastSteerAt ?? 0);
    if (since < STEER_RATE_LIMIT_MS) return refused(TOOL_ERRORS.steerRateLimited(since, STEER_RATE_LIMIT_MS / 1000));
    record.steerCount += 1;
    record.lastSteerAt = this.now();
    if (record.runtime === "acp") return this.steerAcp(record, text);

    const child = record.childSessionKey;
    const active = this.deps.conversations.runs.activeFor(child);
    let settled = true;
    if (record.roundOpen && active.length > 0) {
      record.steering = true;
      this.deps.conversations.abort(child);
      settled = await Promise.race([Promise.all(active.map((r) => r.done)).then(() => true), delay(STEER_ABORT_SETTLE_TIMEOUT_MS).then(() => false)]);
    } else this.openRound(record);
    const submitted = this.deps.conversations.submit({
      sessionKey: child,
      idempotencyKey: `${record.runId}:steer:${record.steerCount}`,
      message: subagentSteerMessage(text),
      method: "agent",
      internal: {},
      provenance: { kind: "inter_session", sourceSessionKey: from, sourceTool: "subagents" },
      senderIsOwner: record.senderIsOwner,
    });
    // The steer's run exists once submit returns synchronously, so no settle in between can close the round.
    delete record.steering;
    this.registry.changed();
    try {
      const outcome = await submitted;
      if (outcome.kind !== "accepted") throw new Error(outcome.kind === "rejected" ? outcome.notice : outcome.kind);
      this.trackRun(record, outcome.run);
    } catch (err) {
      record.lastRunStatus = "error";
      record.lastError = `steer failed: ${(err as Error).message}`;
      this.settle(record);
      return refused(TOOL_ERRORS.steerFailed(record.lastError));
    }
    return { ok: true, restarted: active.length > 0, settled };
  }

  /**
   * A message written in a thread-bound ACP child's thread: its next prompt, queued behind a
   * running turn (not a steer: nothing is cancelled). Undefined when it went to the agent,
   * else why not, for the chat.
   */
  followUpInThread(childSessionKey: string, text: string): string | undefined {
    const record = this.registry.forChild(childSessionKey);
    if (record?.runtime !== "acp" || !record.thread) return "This thread no longer belongs to a running ACP agent.";
    if (record.endedAt) return `This agent's session has ended (${record.outcome ?? "ended"}); start a new one from the chat.`;
    this.openRound(record);
    this.registry.changed();
    this.trackAcpRun(record, this.deps.acp!.run({ sessionKey: childSessionKey, text, mode: "prompt", ...acpTurnOptions(record, false) }));
    return undefined;
  }

  /** An idle session-mode child starts its next round (an open round goes on). */
  private openRound(record: SubagentRunRecord): void {
    if (record.roundOpen) return;
    record.round += 1;
    record.roundOpen = true;
    record.roundStartedAt = this.now();
  }

  /** An ACP child is steered by cancelling its turn and prompting again; the round stays open throughout. */
  private steerAcp(record: SubagentRunRecord, text: string): SteerOutcome {
    const restarted = (this.acpRunning.get(record.childSessionKey) ?? 0) > 0;
    this.openRound(record);
    this.registry.changed();
    this.trackAcpRun(record, this.deps.acp!.run({ sessionKey: record.childSessionKey, text, mode: "steer", ...acpTurnOptions(record) }));
    return { ok: true, restarted, settled: true };
  }

  /** The child session's transcript messages (empty once its session is archived). */
  childHistory(record: SubagentRunRecord): readonly TranscriptMessage[] {
    return this.deps.conversations.history(record.childSessionKey);
  }

  // ── runs and rounds ─────────────────────────────────────────────────────────────────────────

  private trackRun(record: SubagentRunRecord, run: ConversationRun): void {
    record.currentRunId = run.runId;
    if (record.thread) this.deps.threads?.deliverRun(record.childSessionKey, run);
    void run.done.then((ended) => this.afterRun(record.runId, ended));
  }

  private afterRun(recordId: string, run: ConversationRun): void {
    const record = this.registry.get(recordId);
    if (!record || this.stopped) return;
    this.countRun(record, run);
    this.settle(record);
  }

  /** Adds a finished run of the child's session to its stats. */
  private countRun(record: SubagentRunRecord, run: ConversationRun): void {
    record.runs.total += 1;
    if (run.status === "ok") record.runs.ok += 1;
    else if (run.status !== "aborted") record.runs.failed += 1;
    record.accumulatedRuntimeMs += run.result?.durationMs ?? Math.max(0, (run.endedAt ?? this.now()) - (run.startedAt ?? run.acceptedAt));
    record.lastRunStatus = run.status;
    if (run.result?.error) record.lastError = run.result.error.message;
    else delete record.lastError;
    this.registry.changed();
  }

  /** Completes the round once nothing in the child is running or queued and no child of its own still owes a result. */
  private settle(record: SubagentRunRecord | undefined): void {
    if (!record || this.stopped || !record.roundOpen || record.steering) return;
    if (record.runtime === "acp" ? (this.acpRunning.get(record.childSessionKey) ?? 0) > 0 : this.deps.conversations.runs.activeFor(record.childSessionKey).length > 0) return;
    if (this.registry.childrenOf(record.childSessionKey).some((c) => c.roundOpen || isOwed(c))) return;
    this.completeRound(record);
  }

  private completeRound(record: SubagentRunRecord): void {
    const now = this.now();
    const entry = this.deps.store.get(record.childSessionKey);
    const { outcome, reason, error } = this.roundOutcome(record, entry?.sessionId);
    const resultText =
      outcome !== "ok"
        ? ""
        : record.runtime === "acp"
          ? (this.acpReplies.get(record.childSessionKey) ?? "")
          : latestReply(this.deps.conversations.history(record.childSessionKey), record.roundStartedAt);
    this.acpReplies.delete(record.childSessionKey);
    this.registry.freezeResult(record, resultText);
    record.tokens = { input: entry?.inputTokens ?? 0, output: entry?.outputTokens ?? 0 };
    record.roundOpen = false;
    record.lastRoundEndedAt = now;
    record.outcome = outcome;
    record.endedReason = reason;
    if (error) record.lastError = error;
    this.deps.tasks?.ended(record.runId, subagentTaskEnd(outcome, record.lastError, resultText));
    // A session-mode child stays for follow-up steers unless it was killed or its session went away.
    if (record.spawnMode === "run" || outcome === "killed" || outcome === "reset" || outcome === "deleted") this.markEnded(record, now);
    this.announcements.open(record, { outcome, reason, resultText, endedAt: now });
  }

  private roundOutcome(record: SubagentRunRecord, sessionId: string | undefined): { outcome: SubagentOutcome; reason: SubagentRunRecord["endedReason"] & string; error?: string } {
    if (record.killRequested) return { outcome: "killed", reason: "subagent-killed" };
    if (!sessionId) return { outcome: "deleted", reason: "session-delete" };
    if (record.childSessionId && sessionId !== record.childSessionId) return { outcome: "reset", reason: "session-reset" };
    switch (record.lastRunStatus) {
      case "ok":
        return { outcome: "ok", reason: "subagent-complete" };
      case "timeout":
        return { outcome: "timeout", reason: "subagent-error", error: record.lastError ?? "timed out" };
      case "aborted":
        return { outcome: "error", reason: "subagent-error", error: record.lastError ?? "the run was aborted" };
      default:
        return { outcome: "error", reason: "subagent-error", error: record.lastError ?? "the run failed" };
    }
  }

  /** After a restart: the child's runs died with the old process unless its transcript ends in a finished answer. */
  private recoverRound(record: SubagentRunRecord): void {
    if (record.killRequested) return this.completeRound(record);
    // Its own children will report in after the restart, and their results wake it up.
    if (this.registry.childrenOf(record.childSessionKey).some((c) => c.roundOpen || isOwed(c))) return;
    if (endsWithFinalAnswer(this.deps.conversations.history(record.childSessionKey), record.roundStartedAt)) {
      record.lastRunStatus = "ok";
      delete record.lastError;
    } else {
      record.lastRunStatus = "error";
      record.lastError = INTERRUPTED;
    }
    this.completeRound(record);
  }

  private endIdle(record: SubagentRunRecord, outcome: "killed"): void {
    this.markEnded(record, this.now());
    record.outcome = outcome;
    record.endedReason = "subagent-killed";
    this.registry.changed();
  }

  // ── announcements ───────────────────────────────────────────────────────────────────────────

  /** The announcement is done with (answered, suppressed, failed, expired): clean up, and wake a waiting requester. */
  private afterAnnouncementSettled(record: SubagentRunRecord): void {
    if (record.endedAt && record.cleanup === "delete") this.deleteChildSession(record);
    this.settle(this.registry.forChild(record.requesterSessionKey));
    if (record.announce && record.announce.targetSessionKey !== record.requesterSessionKey) this.settle(this.registry.forChild(record.announce.targetSessionKey));
  }

  // ── archiving ───────────────────────────────────────────────────────────────────────────────

  /** Archives finished children after `archiveAfterMinutes`, and re-checks open rounds nothing woke. */
  sweep(): void {
    if (this.stopped) return;
    const now = this.now();
    for (const record of this.registry.all()) {
      if (record.roundOpen) {
        this.settle(record);
        continue;
      }
      const minutes = resolveSubagentSettings(this.deps.config(), parseSessionKey(record.requesterSessionKey).agentId).archiveAfterMinutes;
      if (minutes <= 0 || isOwed(record)) continue;
      let since = record.endedAt ?? record.lastRoundEndedAt ?? record.createdAt;
      // A live thread-bound child is idle from the last message in its thread, not from its task's end.
      if (record.thread && !record.endedAt) since = Math.max(since, this.deps.store.get(record.childSessionKey)?.updatedAt ?? 0);
      if (now - since < minutes * 60_000) continue;
      if (!record.endedAt) this.markEnded(record, now);
      this.deleteChildSession(record);
      this.registry.remove(record.runId);
    }
  }

  /** The child is over for good: nothing reaches it through its thread any more. */
  private markEnded(record: SubagentRunRecord, now: number): void {
    record.endedAt = now;
    if (record.thread) this.deps.threads?.release(record.childSessionKey);
  }

  private deleteChildSession(record: SubagentRunRecord): void {
    try {
      this.deps.store.delete(record.childSessionKey);
    } catch (err) {
      this.deps.logger.warn({ child: record.childSessionKey, err: (err as Error).message }, "sub-agent session not archived");
    }
  }
}

const NO_THREADS: SpawnRefusal = TOOL_ERRORS.noThreadChannels();

function refused(refusal: SpawnRefusal): SteerOutcome {
  return { ok: false, refusal };
}

/** An ACP child's turn: its run timeout, and its progress relayed to the requester when it asked (never for thread messages). */
function acpTurnOptions(record: SubagentRunRecord, relay = true): { streamToParent?: string; timeoutSeconds?: number } {
  return {
    ...(relay && record.acp?.streamToParent ? { streamToParent: record.requesterSessionKey } : {}),
    ...(record.runTimeoutSeconds ? { timeoutSeconds: record.runTimeoutSeconds } : {}),
  };
}

/** What a sub-agent starts with: its spawn's `context`, else `fork` in a thread (`session.threadBindings.defaultSpawnContext`), else `isolated`. */
function spawnContext(config: OpenClawConfig, args: SessionsSpawnArgs): "fork" | "isolated" {
  if (args.context) return args.context;
  return args.thread ? (config.session?.threadBindings?.defaultSpawnContext ?? "fork") : "isolated";
}
