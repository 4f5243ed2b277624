import type { AgentEvent, ImageBlock, UserMessage } from "../agents/types.js";
import type { TurnSettings } from "../agents/conversation-port.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { parseSessionKey } from "../sessions/keys/index.js";
import {
  createSessionInbox,
  type InboundMessage,
  type InboxNotice,
  type InboxSettings,
  type LaneScheduler,
  type OfferResult,
  type QueueMode,
  type QueuedTurn,
  type SessionInbox,
} from "../sessions/lanes/index.js";
import { InternalTurnQueue, MERGED_MESSAGE_SEPARATOR, type InternalMessage } from "./internal-turn-queue.js";
import type { RunEndings } from "./run-endings.js";
import type { RunEventSink } from "./run-event-bridge.js";
import type { RunRegistry } from "./run-registry.js";
import { NOT_ANSWERED_AT_SHUTDOWN } from "./shutdown-endings.js";

/** One turn: the runs it answers (`members`, the last names it), its prompt and who listens. */
export interface Turn {
  sessionKey: string;
  agentId: string;
  members: string[];
  text: string;
  /** Images of the turn's messages (`SubmitInput.images`). */
  images?: ImageBlock[];
  onEvents: ((e: AgentEvent) => void)[];
  extraSystemPrompt?: string;
  /** The turn settings of the messages it answers (SubmitInput.turnSettings), the same for all of them. */
  settings?: TurnSettings;
  onSteered?: (ids: string[]) => void;
  senderIsOwner: boolean;
  channel?: string;
  /** Started by the runtime (announcements, inter-session messages), not by a person. */
  runtime?: boolean;
  /** A turn merged from queued messages: its messages, and its prompt for some of them. */
  queued?: Pick<QueuedTurn<TurnSettings>, "messages" | "textOf">;
  /** A turn of runtime messages (announcements that waited together): its messages. */
  internal?: InternalMessage[];
}

export interface TurnQueueDeps {
  lanes: LaneScheduler;
  runs: RunRegistry;
  endings: RunEndings;
  sink: RunEventSink;
  config(): OpenClawConfig;
  logger: Logger;
  /** Runs one turn in its lane slot. */
  run(turn: Turn, signal: AbortSignal): Promise<void>;
}

/**
 * Which turn of a session runs next. A session runs one turn at a time on its lane; what arrives
 * meanwhile waits in the session's inbox (steered into the running turn, queued as a followup,
 * collected, or interrupting it, by `messages.queue`) or, when the runtime sent it, in the
 * internal queue, which goes first once the turn ends.
 */
export class TurnQueue {
  private readonly inboxes = new Map<string, SessionInbox<TurnSettings>>();
  private readonly steeredCount = new Map<string, number>();
  private readonly activeTurns = new Map<string, Turn>();
  /** Turns whose lane task began. A held turn not in it has not started (its message is being synced, or it waits for a slot under `maxConcurrent`). */
  private readonly startedTurns = new WeakSet<Turn>();
  /** Event listeners of runs that wait for their turn. */
  private readonly pendingListeners = new Map<string, (e: AgentEvent) => void>();
  /** Runs whose messages were summarized (queue overflow) and wait for the turn that carries the summary. */
  private readonly summarizedWaiting = new Map<string, string[]>();
  private readonly internalQueue = new InternalTurnQueue();
  /** The mode the session's latest message asked for (`chat.send` queueMode or the session's `/queue`). */
  private readonly modeOverrides = new Map<string, QueueMode>();
  /** The chat channel the session's latest message came from (`messages.queue.byChannel`). */
  private readonly messageChannels = new Map<string, string>();
  /** The gateway stops: no turn starts any more. */
  private stopping = false;

  constructor(private readonly deps: TurnQueueDeps) {}

  /** True while a turn of the session is held or running. */
  isActive(sessionKey: string): boolean {
    return this.activeTurns.has(sessionKey);
  }

  /** A new message must wait: a turn runs or is due, or older messages wait. */
  busy(sessionKey: string): boolean {
    // Waiting inbox messages count too: a newcomer must not overtake an older collected batch.
    return this.turnRunningOrDue(sessionKey) || (this.inboxes.get(sessionKey)?.pendingCount() ?? 0) > 0;
  }

  /** A turn holds the session, runs on its lane or waits there, or a runtime message waits for one. */
  private turnRunningOrDue(sessionKey: string): boolean {
    return this.turnHeldOrOnLane(sessionKey) || this.internalQueue.pendingCount(sessionKey) > 0;
  }

  /** A turn holds the session, or something runs or waits on its lane: it will call `turnEnded`. */
  private turnHeldOrOnLane(sessionKey: string): boolean {
    return this.activeTurns.has(sessionKey) || this.deps.lanes.isActive(sessionKey) || this.deps.lanes.queuedCount(sessionKey) > 0;
  }

  listen(runId: string, listener: (e: AgentEvent) => void): void {
    this.pendingListeners.set(runId, listener);
  }

  forgetListener(runId: string): void {
    this.pendingListeners.delete(runId);
  }

  /** Holds the session for `turn` before it starts: later messages queue behind it. */
  hold(turn: Turn): void {
    this.activeTurns.set(turn.sessionKey, turn);
  }

  /**
   * Runs `turn` on its session's lane; the next waiting turn follows when it ends. Once the
   * gateway stops, a turn that has not started never does: its runs end as not answered.
   */
  start(turn: Turn): void {
    this.activeTurns.set(turn.sessionKey, turn);
    this.deps.lanes
      .enqueue(turn.sessionKey, async (signal) => {
        this.startedTurns.add(turn);
        if (this.stopping) return this.deps.endings.endUnstarted(turn.sessionKey, turn.members, "error", NOT_ANSWERED_AT_SHUTDOWN, { byShutdown: true });
        // Every run it answered was taken out while it waited: nothing is left to run.
        if (turn.members.length > 0) await this.deps.run(turn, signal);
      })
      .catch((err) => {
        if (this.stopping) return this.deps.endings.endUnstarted(turn.sessionKey, turn.members, "error", NOT_ANSWERED_AT_SHUTDOWN, { byShutdown: true });
        this.deps.logger.error({ sessionKey: turn.sessionKey, err: (err as Error).message }, "turn failed to run");
        this.deps.endings.finish(turn.members, "error", undefined, (err as Error).message);
      })
      .finally(() => this.turnEnded(turn.sessionKey));
  }

  /**
   * The gateway stops: no turn starts any more. Every message still waiting (in an inbox, in the
   * runtime queue, or in a turn that has not started) ends now, its run with an error that says
   * it was not answered, as nothing runs it after the restart. Running turns are left to be aborted.
   */
  stop(): void {
    this.stopping = true;
    const sessions = new Set(this.deps.runs.all().flatMap((run) => (run.endedAt ? [] : [run.sessionKey])));
    for (const sessionKey of sessions) this.deps.endings.endUnstarted(sessionKey, this.clear(sessionKey), "error", NOT_ANSWERED_AT_SHUTDOWN, { byShutdown: true });
  }

  /** A runtime message for a busy session: it waits for a turn of its own. */
  addInternal(sessionKey: string, message: InternalMessage): void {
    this.internalQueue.add(sessionKey, message);
  }

  /**
   * A user message for a busy session goes to its inbox. An `interrupt` aborts the session's turn,
   * running or not started yet (that one ends before it runs, as OpenClaw clears the session's
   * lane); the inbox then makes the message the next turn. A message is steered into the
   * session's turn only when its turn settings are that turn's.
   */
  offer(sessionKey: string, queueMode: QueueMode | undefined, message: InboundMessage<TurnSettings>, channel?: string): OfferResult {
    const offer = this.inboxFor(sessionKey, queueMode, channel).offer(message, this.activeTurns.get(sessionKey)?.settings);
    if (offer.action === "steered") this.steeredCount.set(sessionKey, (this.steeredCount.get(sessionKey) ?? 0) + 1);
    if (offer.action === "interrupt") {
      const reason = "interrupted by a newer message";
      this.deps.lanes.abortActive(sessionKey, new Error(reason));
      this.deps.endings.endUnstarted(sessionKey, this.takeOutOfHeldTurn(sessionKey), "aborted", reason);
    }
    return offer;
  }

  /**
   * True when a user message for the busy session would be refused (`drop: new`, the queue full).
   * Cap and drop policy come from the config alone (a reload reconfigures every inbox), so the
   * inbox as it is answers; a session without one has nothing waiting.
   */
  refuses(sessionKey: string): boolean {
    return this.inboxes.get(sessionKey)?.refusesNext() ?? false;
  }

  /**
   * Empties the session's queues, and its turn when that waits for a lane slot (it never runs);
   * returns the ids of the runs that were waiting.
   */
  clear(sessionKey: string): string[] {
    const queued: string[] = this.takeOutOfHeldTurn(sessionKey);
    for (const m of this.inboxes.get(sessionKey)?.clear().messages ?? []) queued.push(m.id);
    queued.push(...(this.summarizedWaiting.get(sessionKey) ?? []));
    for (const m of this.internalQueue.clear(sessionKey)) queued.push(m.runId);
    this.summarizedWaiting.delete(sessionKey);
    this.steeredCount.delete(sessionKey);
    return queued;
  }

  /**
   * Takes one run's message out of the session's queues (its run alone was aborted): the messages
   * waiting with it stay. Returns `[runId]` when it was waiting, else `[]`.
   */
  withdraw(sessionKey: string, runId: string): string[] {
    const inbox = this.inboxes.get(sessionKey);
    const from = inbox?.remove(runId);
    if (from === "steering") this.steeredCount.set(sessionKey, Math.max(0, (this.steeredCount.get(sessionKey) ?? 0) - 1));
    const internal = this.internalQueue.remove(sessionKey, runId);
    const summarized = this.summarizedWaiting.get(sessionKey) ?? [];
    const wasSummarized = summarized.includes(runId);
    if (wasSummarized) summarized.splice(summarized.indexOf(runId), 1);
    const withdrawn = from || internal || wasSummarized ? [runId] : [];
    if (from && inbox!.pendingCount() === 0 && summarized.length > 0) {
      // No message waits any more to carry the summaries of those dropped earlier: their runs end too.
      inbox!.clear();
      withdrawn.push(...summarized);
      this.summarizedWaiting.delete(sessionKey);
    }
    return withdrawn.length > 0 ? withdrawn : this.takeOutOfHeldTurn(sessionKey, runId);
  }

  /**
   * Takes runs out of the session's turn before it starts (it waits for a lane slot), all of them
   * without `runId`. A turn merged from queued messages runs for the messages left, its
   * prompt rebuilt without the others (a summarized message's line stays in it); so does a turn
   * of merged runtime messages; a turn left with no run does not run. A turn of one message
   * gives up its run only with all of the others. Returns the ids taken out: their runs never started.
   */
  private takeOutOfHeldTurn(sessionKey: string, runId?: string): string[] {
    const turn = this.activeTurns.get(sessionKey);
    if (!turn || this.startedTurns.has(turn)) return [];
    const leaving = runId === undefined ? [...turn.members] : turn.members.filter((id) => id === runId);
    const { queued, internal } = turn;
    if (leaving.length === 0 || (!queued && !internal && leaving.length < turn.members.length)) return [];
    const internalLeft = internal?.filter((m) => !leaving.includes(m.runId)) ?? [];
    const messages = queued?.messages.filter((m) => !leaving.includes(m.id)) ?? [];
    if (messages.length === 0 && internalLeft.length === 0) {
      // With its last message out, the summaries it carried have nothing to ride on either.
      const all = turn.members;
      turn.members = [];
      turn.onEvents = [];
      return all;
    }
    if (internalLeft.length > 0) {
      Object.assign(turn, this.internalTurn(internalLeft));
      return leaving;
    }
    const summarized = turn.members.filter((id) => !leaving.includes(id) && !messages.some((m) => m.id === id));
    Object.assign(turn, this.queuedTurn(sessionKey, summarized, messages, queued!.textOf));
    return leaving;
  }

  /** True when messages were steered into the session's running turn and not yet taken. */
  steeringPending(sessionKey: string): boolean {
    return (this.steeredCount.get(sessionKey) ?? 0) > 0;
  }

  /** The messages steered into `turn` since the last model call; their runs join the turn. */
  takeSteering(turn: Turn): UserMessage[] {
    const taken = this.inboxes.get(turn.sessionKey)?.takeSteering() ?? [];
    this.steeredCount.set(turn.sessionKey, 0);
    for (const message of taken) {
      if (message.meta?.synthetic === "queue-summary") {
        // The summary reaches the model now: the summarized messages are answered by this turn.
        const ids = message.meta.summarizedIds ?? this.summarizedWaiting.get(turn.sessionKey) ?? [];
        this.summarizedWaiting.delete(turn.sessionKey);
        for (const id of ids) if (!turn.members.includes(id)) turn.members.push(id);
        turn.onSteered?.(ids);
        continue;
      }
      turn.members.push(message.id);
      turn.onSteered?.([message.id]);
      this.deps.runs.markRunning(message.id);
      const listener = this.pendingListeners.get(message.id);
      if (listener) turn.onEvents.push(listener);
    }
    return taken.map((m) => ({
      role: "user",
      content: m.meta?.images?.length ? [{ type: "text", text: m.text }, ...m.meta.images] : m.text,
      timestamp: m.receivedAt,
    }));
  }

  /** The session's turn is over (or never started): the next waiting turn, if any, starts. */
  turnEnded(sessionKey: string): void {
    this.activeTurns.delete(sessionKey);
    this.steeredCount.delete(sessionKey);
    if (this.startInternalTurn(sessionKey)) return;
    const inbox = this.inboxes.get(sessionKey);
    if (!inbox) return;
    const next = inbox.nextTurn();
    if (next) return this.startQueuedTurn(sessionKey, next);
    if (inbox.pendingCount() > 0) {
      void inbox.whenReady().then(() => {
        // The batch's own messages are what waits: only another turn may make it wait longer.
        if (this.turnHeldOrOnLane(sessionKey)) return;
        // A runtime message that arrived during the quiet window goes first, the batch after it.
        if (this.startInternalTurn(sessionKey)) return;
        const ready = inbox.nextTurn();
        if (ready) this.startQueuedTurn(sessionKey, ready);
      });
    }
  }

  /**
   * A reload's `messages.queue` governs the sessions' inboxes from now on; what waits stays. A
   * session whose last message chose its own mode keeps that mode.
   */
  applyConfig(config: OpenClawConfig): void {
    for (const [sessionKey, inbox] of this.inboxes) {
      this.configure(sessionKey, inbox, inboxSettings(config, this.modeOverrides.get(sessionKey), this.messageChannels.get(sessionKey)));
    }
  }

  private inboxFor(sessionKey: string, override?: QueueMode, channel?: string): SessionInbox<TurnSettings> {
    if (override) this.modeOverrides.set(sessionKey, override);
    else this.modeOverrides.delete(sessionKey);
    if (channel) this.messageChannels.set(sessionKey, channel);
    else this.messageChannels.delete(sessionKey);
    const settings = inboxSettings(this.deps.config(), override, channel);
    const inbox = this.inboxes.get(sessionKey);
    if (inbox) {
      this.configure(sessionKey, inbox, settings);
      return inbox;
    }
    const created = createSessionInbox<TurnSettings>({ ...settings, sessionKey, notify: (notice) => this.onInboxNotice(sessionKey, notice) });
    this.inboxes.set(sessionKey, created);
    return created;
  }

  private configure(sessionKey: string, inbox: SessionInbox<TurnSettings>, settings: InboxSettings): void {
    inbox.reconfigure(settings);
    // Out of steer mode, what was steered waits as followups: the running turn has nothing to take.
    if (inbox.mode !== "steer") this.steeredCount.delete(sessionKey);
  }

  /**
   * The inbox had to drop or summarize queued messages (past `messages.queue.cap`). The sender
   * hears about it; a dropped message's run ends now, a summarized one's ends with the turn that
   * carries its summary — no run is left waiting forever.
   */
  private onInboxNotice(sessionKey: string, notice: InboxNotice): void {
    this.deps.sink.chat({ sessionKey, state: "notice", kind: notice.kind, text: notice.text, messageIds: notice.messageIds, runId: notice.messageIds[0] ?? "" });
    if (notice.kind === "dropped") {
      // A summarized message whose summary was dropped too waits for no turn any more.
      const still = this.summarizedWaiting.get(sessionKey)?.filter((id) => !notice.messageIds.includes(id));
      if (still) this.summarizedWaiting.set(sessionKey, still);
      this.deps.endings.endUnstarted(sessionKey, notice.messageIds, "error", notice.text);
    }
    if (notice.kind === "summarized") {
      const waiting = this.summarizedWaiting.get(sessionKey) ?? [];
      waiting.push(...notice.messageIds);
      this.summarizedWaiting.set(sessionKey, waiting);
    }
  }

  /**
   * Runtime messages that waited for the session go next, as their own turn (announcements that
   * waited together share one). Steering the finished turn never took becomes followups first,
   * so user messages keep their order behind it.
   */
  private startInternalTurn(sessionKey: string): boolean {
    const messages = this.internalQueue.take(sessionKey);
    if (!messages) return false;
    this.inboxes.get(sessionKey)?.runEnded();
    this.start({ sessionKey, ...this.internalTurn(messages) });
    return true;
  }

  /** The turn that answers runtime `messages`, one prompt with a rule between them. */
  private internalTurn(messages: InternalMessage[]): Omit<Turn, "sessionKey"> {
    const members = messages.map((m) => m.runId);
    // Messages share a turn only with equal settings (InternalTurnQueue.take).
    const settings = messages[0]!.settings;
    return {
      ...(settings ? { settings } : {}),
      agentId: messages[0]!.agentId,
      members,
      text: messages.map((m) => m.text).join(MERGED_MESSAGE_SEPARATOR),
      onEvents: this.listenersOf(members),
      senderIsOwner: messages.every((m) => m.senderIsOwner),
      runtime: true,
      internal: messages,
    };
  }

  private startQueuedTurn(sessionKey: string, next: QueuedTurn<TurnSettings>): void {
    // The inbox put the summaries of dropped messages into this turn's prompt: it answers them.
    const summarized = this.summarizedWaiting.get(sessionKey) ?? [];
    this.summarizedWaiting.delete(sessionKey);
    this.start({ sessionKey, ...this.queuedTurn(sessionKey, summarized, next.messages, next.textOf) });
  }

  /** The turn that answers `messages` (and the summarized runs whose lines its prompt carries). */
  private queuedTurn(sessionKey: string, summarized: string[], messages: InboundMessage<TurnSettings>[], textOf: QueuedTurn<TurnSettings>["textOf"]): Omit<Turn, "sessionKey"> {
    const agentId = messages[0]?.meta?.agentId ?? parseSessionKey(sessionKey).agentId;
    const ids = messages.map((m) => m.id);
    // A merged turn runs with the least privilege of the messages in it.
    const senderIsOwner = messages.every((m) => m.meta?.senderIsOwner !== false);
    const channel = messages.map((m) => m.meta?.channel).find((c): c is string => typeof c === "string");
    const images = messages.flatMap((m) => m.meta?.images ?? []);
    // The inbox merges only messages with equal settings: the first one's are the turn's.
    const settings = messages[0]?.meta?.turnSettings;
    return {
      ...(settings ? { settings } : {}),
      agentId,
      members: [...summarized, ...ids],
      text: textOf(messages),
      images: images.length > 0 ? images : undefined,
      onEvents: this.listenersOf(ids),
      senderIsOwner,
      channel,
      queued: { messages, textOf },
    };
  }

  private listenersOf(runIds: string[]): ((e: AgentEvent) => void)[] {
    return runIds.map((id) => this.pendingListeners.get(id)).filter((f): f is (e: AgentEvent) => void => Boolean(f));
  }
}

/**
 * The inbox settings `messages.queue` gives, as OpenClaw resolves them: the message's (or the
 * session's) own mode first, then the mode for the chat channel it came from (`byChannel`), then
 * `mode`; `debounceMsByChannel` likewise before `debounceMs`.
 */
function inboxSettings(config: OpenClawConfig, override: QueueMode | undefined, channel: string | undefined): InboxSettings {
  const queue = config.messages?.queue ?? {};
  const byChannel = channel ? queue.byChannel?.[channel] : undefined;
  const debounceByChannel = channel ? queue.debounceMsByChannel?.[channel] : undefined;
  return { mode: override ?? byChannel ?? queue.mode ?? "steer", cap: queue.cap, drop: queue.drop, debounceMs: debounceByChannel ?? queue.debounceMs };
}
