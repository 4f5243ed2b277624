/**
 * Shapes shared by the session inbox (`messages.queue`, see docs/sessions.md): what arrives, what
 * the inbox says it did with it, and the notices it raises when it has to drop or refuse something.
 */

import type { ImageBlock } from "../../models/messages.js";

/** What to do with a message that arrives while the session's run is active. */
export type QueueMode = "steer" | "followup" | "collect" | "interrupt";

/** What to do when `cap` messages are already waiting. */
export type DropPolicy = "summarize" | "old" | "new";

/** `S`: the shape of a message's own turn settings (plain data the inbox only compares). */
export interface InboundMessage<S extends object = object> {
  id: string;
  text: string;
  receivedAt: number;
  meta?: InboundMessageMeta<S>;
}

/**
 * What travels with a message through the inbox, which only carries it: who sent it (so a turn
 * merged from several messages knows whose it is), the settings of the turn that answers it, or,
 * on the inbox's own summary of dropped messages, which messages that summary stands for.
 */
export interface InboundMessageMeta<S extends object = object> {
  agentId?: string;
  /** `false` when the sender is not the owner; a merged turn is the owner's only if every message is. */
  senderIsOwner?: boolean;
  channel?: string;
  /** Images that came with the message: image input for the turn that takes it (never stored). */
  images?: ImageBlock[];
  /**
   * The message's own settings for the turn that answers it. Messages share a turn only when
   * their settings are equal (`sameTurnSettings`; none equals none): a message is steered into the
   * running turn only when its settings are that turn's, and `collect` / `interrupt` merge only
   * consecutive messages with equal settings.
   */
  turnSettings?: S;
  /** Set only on the summary message the inbox makes under drop policy `summarize`. */
  synthetic?: "queue-summary";
  /** With `synthetic`: the ids of the messages the summary stands for. */
  summarizedIds?: string[];
}

export interface OfferResult {
  /**
   * - `steered`: in the steering buffer; the active run picks it up at its next model boundary.
   * - `queued`: waits for a later turn (`nextTurn()`).
   * - `interrupt`: the caller should abort the active run; the message is the next turn.
   * - `rejected`: not kept (drop policy `new`); `notice` says so for the user.
   */
  action: "steered" | "queued" | "interrupt" | "rejected";
  /** 1-based place among the messages waiting in the same buffer. */
  position?: number;
  /** Text for the user when this offer caused a drop, a summary, or a rejection. */
  notice?: string;
}

export interface InboxNotice {
  sessionKey?: string;
  kind: "dropped" | "rejected" | "summarized";
  /** User-facing text, the same as `OfferResult.notice`. */
  text: string;
  messageIds: string[];
}

/** One turn to run: the messages it answers (all with equal turn settings) and the prompt text built from them. */
export interface QueuedTurn<S extends object = object> {
  messages: InboundMessage<S>[];
  mergedText: string;
  /** The prompt text this turn has for some of its messages (one taken out before it ran). */
  textOf(messages: readonly InboundMessage<S>[]): string;
}

/** What `clear()` removed, so the caller can tell the user which messages will get no reply. */
export interface ClearedInbox<S extends object = object> {
  /** In arrival order. */
  messages: InboundMessage<S>[];
  /** Summary lines of messages already dropped under `drop: "summarize"`, not yet delivered. */
  summaries: string[];
}

/** How the inbox treats what arrives (`messages.queue`); `reconfigure` changes them while messages wait. */
export interface InboxSettings {
  mode: QueueMode;
  /** Max waiting messages (steering buffer + queue). Values < 1 fall back to 20, as in OpenClaw. */
  cap?: number;
  drop?: DropPolicy;
  /** Quiet window before a `collect` batch is ready. Default 500 ms. */
  debounceMs?: number;
}

export interface SessionInboxOptions extends InboxSettings {
  /** Every drop, summary or rejection is reported here; nothing is discarded silently. */
  notify: (event: InboxNotice) => void;
  /** Copied into notices so one handler can serve many sessions. */
  sessionKey?: string;
}

export interface SessionInbox<S extends object = object> {
  readonly mode: QueueMode;
  /**
   * New settings for what happens next. Waiting messages stay, in order: steering the running
   * turn has not taken becomes followups when the mode leaves `steer`, and a cap below what waits
   * drops nothing until the next message arrives.
   */
  reconfigure(settings: InboxSettings): void;
  /**
   * `runningTurnSettings`: the settings of the session's turn that runs or is about to (none when
   * it has none); in `steer` mode the message is steered into it only when its own settings equal them.
   */
  offer(message: InboundMessage<S>, runningTurnSettings?: S): OfferResult;
  /** True when `offer` would refuse the next message (drop policy `new`, `cap` messages waiting). */
  refusesNext(): boolean;
  /** Steer mode: everything buffered for the active run, oldest first; empties the buffer. */
  takeSteering(): InboundMessage<S>[];
  /** The active run ended: steering it never took becomes followup turns (never lost). */
  runEnded(): void;
  /** The next turn to run, or undefined if none is ready. Implies `runEnded()`. */
  nextTurn(): QueuedTurn<S> | undefined;
  /** Resolves once `nextTurn()` has a turn (for `collect`, after the quiet window). */
  whenReady(): Promise<void>;
  pendingCount(): number;
  /**
   * Takes one waiting message out (its run was aborted), or the summary line of a summarized one;
   * says which buffer held the message, or undefined.
   */
  remove(id: string): "queue" | "steering" | undefined;
  clear(): ClearedInbox<S>;
}
