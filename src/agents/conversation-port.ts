import type { QueueMode } from "../sessions/lanes/index.js";
import type { InputProvenance } from "../sessions/provenance.js";
import type { CompactionResult } from "../sessions/compaction/index.js";
import type { ImageBlock } from "../models/messages.js";
import type { AgentEvent, HeartbeatReport, RunResult, TranscriptMessage } from "./types.js";
import type { ClientToolSpec } from "./client-tools.js";
import type { PromptMode } from "./context/system-prompt.js";
import type { ReplyVia } from "./reply-via.js";
import type { LocatedToolRule } from "./policy/types.js";
import type { ElevatedGrant } from "./sandbox/elevated-level.js";

export type { ReplyVia } from "./reply-via.js";

/**
 * The conversation core's contract: what channels, gateway methods, the OpenAI route, sub-agents
 * and agent-to-agent messaging may ask of it. `ConversationService` (src/conversations/)
 * implements it. It is stated here, in the agents layer, because the agent runtime's session
 * tools (sessions_spawn, sessions_send) call back into conversations and may not import a layer
 * above them; the layers above read the same port. Unit tests use a small fake.
 */
export interface ConversationPort {
  /**
   * Accept a message. Resolves once it is acknowledged-safe: its idempotency record (when it has
   * a key) and its transcript line are on disk.
   */
  submit(input: SubmitInput): Promise<SubmitOutcome>;
  /** Aborts the session's active and queued runs (or only `runId`); returns their ids. */
  abort(sessionKey: string, runId?: string): string[];
  /**
   * `abort`, resolved once the messages it took out of the queue are withdrawn on disk (their
   * markers fsynced off the event loop), so an answer saying they are gone survives a crash;
   * rejects, naming the disk, when the markers could not be synced.
   */
  abortDurably(sessionKey: string, runId?: string): Promise<string[]>;
  /** `/stop`: aborts the session's runs and queue and the sub-agents it spawned; resolves as `abortDurably` does. */
  stop(sessionKey: string): Promise<StopOutcome>;
  /**
   * `/new`: aborts the session's runs and starts it over with a new transcript (the old one stays
   * on disk). With a key, the ledger records it: the same key resets only once.
   */
  reset(input: ResetInput): ResetOutcome;
  /**
   * A new session takes this one's place (`sessions.create` with `emitCommandHooks`, as OpenClaw's
   * TUI sends for `/new`): internal hooks hear `command:new` for it with its last messages, as
   * with `/new`, and the session itself stays as it is.
   */
  announceNew(sessionKey: string, method: "sessions.create"): void;
  /**
   * Removes a session that was never meant to be kept (a stateless HTTP request's) with its
   * transcript, no archive, and forgets what the service held for it. Its runs must have ended.
   * False when there was no such session.
   */
  discard(sessionKey: string): boolean;
  /**
   * A new session (`toKey`, created already) starts with a copy of `fromKey`'s conversation as its
   * next turn would see it, the message still being written left out; refused past `maxTokens`
   * (100K by default), leaving `toKey` empty.
   */
  fork(fromKey: string, toKey: string, maxTokens?: number): ForkOutcome;
  readonly runs: {
    get(runId: string): ConversationRun | undefined;
    /** Unfinished runs of the session (running or waiting for their turn), oldest first. */
    activeFor(sessionKey: string): ConversationRun[];
  };
  /** The session's transcript messages, oldest first (read-only: callers must not mutate). */
  history(sessionKey: string): readonly TranscriptMessage[];
  /** The conversation as chat surfaces show it: questions before their answers. */
  displayHistory(sessionKey: string): TranscriptMessage[];
  /** The transcript entry id of a message `history` or `displayHistory` returned (undefined for others). */
  entryIdOf(message: TranscriptMessage): string | undefined;
  /** A client's session key (or none: the agent's main session) in canonical form, with its agent. */
  resolveSessionKey(sessionKey: string | undefined, agentId: string | undefined): { sessionKey: string; agentId: string };
  /** True when this idempotency key was ever accepted (also before a restart). */
  hasAccepted(idempotencyKey: string): boolean;
  /**
   * Records a chat message that answered a run's waiting question as accepted by that run, so a
   * platform redelivering it (after a crash) does not hand it to the agent as a new message.
   * Resolves once the record is on disk.
   */
  acceptAnswer(idempotencyKey: string, run: { runId: string; sessionKey: string; method: string }): Promise<void>;
  /** True while a turn of the session runs or is about to. */
  isActive(sessionKey: string): boolean;
  /**
   * `/compact [instructions]`, `sessions.compact`: summarize the session's older turns now, on
   * its lane after a turn in progress. Never throws for a compaction that cannot be done: the
   * result says why (docs/sessions.md, "Compaction").
   */
  compact(sessionKey: string, instructions?: string): Promise<CompactionResult>;
  /**
   * `/btw <question>`: a one-shot answer on the session's model with its conversation as
   * background, written nowhere; a run under way is left alone (docs/sessions.md, "Side questions").
   */
  sideQuestion(sessionKey: string, question: string): Promise<SideAnswer>;
  /**
   * `progressCard.refresh`: the agent brings its progress card up to date, told by a hidden
   * control message that a running turn of the session takes at its next model call, or else in
   * a hidden status-only turn on the session's lane (docs/tools.md, "Refreshing the card").
   * Returns at once with the refresh's run id: `runId`, or that of the refresh already waiting
   * for that session, which the request joins.
   */
  refreshProgressCard(sessionKey: string, agentId: string, runId: string): string;
  /**
   * `chat.inject`: an assistant message written into the session's conversation without a run
   * (no model call, no channel delivery), on the session's lane after any run in progress, so it
   * lands between turns; later turns see it as the agent's own words. Resolves once it is on disk.
   */
  inject(sessionKey: string, text: string): Promise<InjectOutcome>;
}

/** What `inject` wrote: the transcript entry's id and the message; or why nothing was written. */
export type InjectOutcome = { ok: true; messageId: string; message: TranscriptMessage } | { ok: false; reason: string };

/** A side question's answer, or why there is none. */
export type SideAnswer = { ok: true; text: string; model: string } | { ok: false; reason: string };

/** What `fork` did: how many messages it copied, or why it copied none. */
export type ForkOutcome = { forked: true; messages: number } | { forked: false; reason: string };

export type RunStatus = "queued" | "running" | "ok" | "error" | "timeout" | "aborted";

/** What a `sessions.changed` notice says beyond the key and reason: the runs a turn ended, and how. */
export interface SessionChangeDetail {
  runIds?: readonly string[];
  phase?: "end" | "error";
}

/** One accepted message's run, as readers see it. */
export interface ConversationRun {
  runId: string;
  sessionKey: string;
  agentId: string;
  status: RunStatus;
  acceptedAt: number;
  startedAt?: number;
  endedAt?: number;
  /**
   * `modelNotice`: a change of model fallback state to tell in DMs; `toolSummary`: the tool calls
   * `/verbose` shows; `reasoning`: the reasoning `/reasoning on` shows; `privateFinal`: the run answered through the `message` tool (`replyVia`), so
   * its final text is not a reply.
   */
  result?: RunResult & { model?: string; modelNotice?: string; toolSummary?: string; reasoning?: string; privateFinal?: true; heartbeatReport?: HeartbeatReport };
  /** Resolves when the run ended, whatever the outcome. */
  done: Promise<ConversationRun>;
}

/** What one message may change about the turn that answers it (SubmitInput.turnSettings). */
export interface TurnSettings {
  modelOverride?: string;
  lightContext?: boolean;
  promptMode?: PromptMode;
  runToolDeny?: { source: string; entries: string[] };
  /** This turn may use only these tools (a stranded reply's retry: `message`). */
  runToolAllow?: { source: string; entries: string[] };
  /** The turn answers through the `message` tool; its final text stays private (see ReplyVia). */
  replyVia?: ReplyVia;
  /** The tool rule of the chat the message came from (`tools` / `toolsBySender` of its group, channel or topic). */
  chatTools?: LocatedToolRule;
  /** The rule `tools.toolsBySender` (or the agent's) has for the message's sender. */
  senderTools?: LocatedToolRule;
  /** The chat's `skills`: only these of the agent's skills are offered. */
  chatSkills?: string[];
  /** Model params for this turn only: an HTTP API request's sampling fields (EmbeddedTurnInput.modelParams). */
  modelParams?: Record<string, unknown>;
  /** Tools the caller runs itself and whether it requires a call (EmbeddedTurnInput.clientTools, clientToolChoice). */
  clientTools?: ClientToolSpec[];
  clientToolChoice?: "required" | { name: string };
  /** At most this many earlier user turns in the history the turn sees (a DM's `dmHistoryLimit`); the rest stays in the transcript. */
  userTurnLimit?: number;
  thinkingLevel?: string;
  /** This message's `/verbose` and `/reasoning` levels (inline directives), over the session's. */
  verboseLevel?: string;
  reasoningLevel?: string;
  timeoutSeconds?: number;
  /** A heartbeat turn: heartbeat_respond is offered and its report comes back as the result's `heartbeatReport`. */
  heartbeat?: true;
  /** The sender passed `tools.elevated`'s gates for the turn's agent (`level`: an inline `/elevated <level> <message>`'s). */
  elevated?: ElevatedGrant;
}

/** A message for the agent. Chat commands (`/stop`, `/new`, …) were answered before it got here (src/conversations/commands/). */
export interface SubmitInput {
  message: string;
  /**
   * Images that came with the message (a chat photo). They reach the model as image input in the
   * turn that answers the message, when that turn's model accepts images (`input` lists "image"),
   * and are not stored in the transcript: `message` says where each file was saved.
   */
  images?: ImageBlock[];
  /**
   * The client's key: the ledger records it, so a re-sent key never starts a second run, also
   * after a restart. Without one (an HTTP completion) the run gets a fresh id and no ledger
   * record: nobody can send that id again, so a record would only cost memory and a write.
   */
  idempotencyKey?: string;
  /**
   * Keys of other messages merged into this one (a channel's debounced burst): the ledger records
   * them as accepted by this run in the same line as `idempotencyKey`, so a redelivery of any of
   * them is known as answered, also after a crash. Ignored without `idempotencyKey`.
   */
  mergedKeys?: readonly string[];
  sessionKey?: string;
  agentId?: string;
  method: "agent" | "chat.send" | "http" | "channel";
  extraSystemPrompt?: string;
  /**
   * The session exists for this message only: it is created as a one-off session (nothing of it
   * is fsynced or written to an index), and once its turn has ended its row and transcript are
   * removed, with no archive (an anonymous `/v1/chat/completions` request keeps nothing). A
   * session that already exists is used as it is and kept.
   */
  ephemeral?: boolean;
  /** Operator clients and the CLI are the owner; a channel sender is one only when `commands.ownerAllowFrom` (or its DM allowlist) says so. */
  senderIsOwner?: boolean;
  /** Where a channel message came from: recorded on the session (`lastChannel`, `lastTo`, …) and in the message's provenance. */
  origin?: ChannelOrigin;
  queueMode?: QueueMode;
  /** Extra per-run listener (the HTTP endpoint streams from it). */
  onEvent?: (event: AgentEvent) => void;
  /** Where the message came from when not from a person (default: `external_user` by `method`). */
  provenance?: InputProvenance;
  /**
   * Sent by the runtime (a sub-agent announcement, an inter-session message): never steered into,
   * merged with or dropped by the user's queue; when the session is busy it waits for its own turn.
   */
  internal?: { mergeable?: boolean };
  /** Extra fields stored on the message's transcript line (e.g. `internalEvents`). */
  transcriptFields?: Record<string, unknown>;
  /**
   * Settings for this message's own turn (a heartbeat's `model`, `lightContext`; `chat.send`'s and
   * `agent`'s run settings). The turn that answers the message runs with them, also when it waited
   * behind a busy session. Messages share a turn only when their settings are equal (fields left
   * unset count as none): a message is steered into a running turn, or merged with waiting ones
   * (`collect`, `interrupt`, runtime messages that waited together), only then; otherwise it waits
   * for a turn of its own, in arrival order.
   */
  turnSettings?: TurnSettings;
  /**
   * The caller acknowledges the message only with its run's answer (an HTTP completion). A turn
   * it starts at once then runs without waiting for the message's own fsync: the run's
   * end-of-turn fsync covers the message too, and a run whose transcript could not be synced
   * ends as an error, so no answer acknowledges what a crash could lose.
   */
  acknowledgedWithAnswer?: boolean;
}

export interface ChannelOrigin {
  channel: string;
  accountId: string;
  chatType: string;
  /** The chat a reply goes to. */
  to: string;
  threadId?: string;
  /** The platform's id of the message (the last one of a merged burst). */
  messageId?: string;
  senderId: string;
  senderName?: string;
  /** Every sender of a merged burst, in order (`senderId` is the last); absent: `senderId` alone. */
  senderIds?: string[];
}

export interface StopOutcome {
  runIds: string[];
  /** Sub-agents of the session that were stopped with it. */
  subagents: number;
}

export interface ResetInput {
  sessionKey: string;
  idempotencyKey?: string;
  /** Where the reset came from (a hook's `commandSource`); `sessions.reset` is the operator method. */
  method: SubmitInput["method"] | "sessions.reset";
  /** The chat command or `sessions.reset` reason that asked for it (internal hooks hear `command:new` or `command:reset`). */
  command?: "new" | "reset";
}

export type ResetOutcome = { kind: "reset" } | { kind: "duplicate"; status: RunStatus | "in_flight" | "interrupted"; summary?: string };

export type SubmitOutcome =
  | { kind: "accepted"; run: ConversationRun; queued: "started" | "steered" | "queued" | "interrupt" }
  | { kind: "duplicate"; runId: string; sessionKey: string; status: RunStatus | "in_flight" | "interrupted"; run?: ConversationRun; summary?: string }
  | { kind: "rejected"; runId: string; sessionKey: string; notice: string; reason?: "acp-session" };

/** The visible text a finished run produced (empty for NO_REPLY or no text). */
export function runReplyText(run: ConversationRun): string {
  return (run.result?.payloads ?? [])
    .map((p) => p.text)
    .join("\n\n")
    .trim();
}

/** What the agent runtime's session tools (sub-agents, agent-to-agent) use of the port. */
export type AgentConversations = Pick<ConversationPort, "submit" | "abort" | "runs" | "history" | "fork">;
