import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../../config/index.js";
import { chatExecApprovers, isApprovalClientChannel } from "../config/channel-exec-approvals.js";
import type { InternalHookSink } from "../../hooks/internal/types.js";
import type { Logger } from "../../infra/logger.js";
import { defaultAgentId, findAgentEntry } from "../../agents/agent-config.js";
import { REASONING_HEADING, reasoningLevelFor } from "../../agents/reasoning-visibility.js";
import type { ConversationPort, TurnSettings } from "../../agents/conversation-port.js";
import type { LocatedToolRule } from "../../agents/policy/index.js";
import type { ElevatedAccess, ElevatedLevel } from "../../agents/sandbox/elevated-level.js";
import type { AutoTtsPreference } from "../../agents/speech/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import { isAcpSessionKey, isMainSessionKey, parseSessionKey } from "../../sessions/keys/index.js";
import { resolveSendPolicy } from "../../sessions/send-policy.js";
import {
  admitsBots,
  decideAccess,
  mentionPatternsFor,
  wasMentioned,
  type AccessDecision,
  type AllowBots,
  type ChatEntry,
  type MentionPatternScope,
  type MentionPatterns,
} from "../access/access-policy.js";
import { chatToolRule, senderToolRule } from "../access/chat-tool-rules.js";
import { elevatedAccess } from "../access/elevated-access.js";
import { EXPLICIT_ONLY, implicitMentionsFor } from "../access/implicit-mentions.js";
import { allowListMatches, allowsNameMatching, commandsAllowed, isOwner } from "../access/allow-list.js";
import type { PairingStore } from "../access/pairing-store.js";
import { CHAT_COMMANDS, matchChatCommand, skillCommands } from "../../conversations/commands/chat-commands.js";
import { skillCommandText } from "../../conversations/commands/skill-commands.js";
import type { ChatCommandContext, ChatCommandResult, MatchedCommand } from "../../conversations/commands/chat-command-registry.js";
import { mayAnswerInChat } from "../../agents/questions/chat-answerers.js";
import type { QuestionBroker } from "../../agents/questions/question-broker.js";
import { runFocusCommand, runUnfocusCommand, type FocusTargetResolver } from "../commands/focus-command.js";
import { buildInboundDedupeKey } from "../inbound/dedupe-key.js";
import type { InboundDedupeCache } from "../inbound/dedupe-cache.js";
import { finalizeInbound, type FinalizedInbound } from "../inbound/finalize-inbound.js";
import type { DeliveryTarget } from "../outbound/delivery-ledger.js";
import type { ReplyDelivery } from "../outbound/reply-delivery.js";
import { startTypingLoop, startTypingReaction } from "../outbound/typing-loop.js";
import { startsTyping, typingIntervalMs, typingModeFor } from "../outbound/typing-mode.js";
import type { AgentEvent } from "../../agents/types.js";
import { PreviewStream } from "../outbound/preview-stream.js";
import { ProgressDraft } from "../outbound/progress-draft.js";
import { progressDraftSettings } from "../outbound/progress-draft-settings.js";
import { toolProgressDetailFor, type ToolProgressDetail } from "../../agents/tool-labels.js";
import { extractInlineDirectives, type InlineLevels } from "../../conversations/commands/inline-directives.js";
import { BlockReplyStream } from "../outbound/block-reply-stream.js";
import { blockStreamingFor } from "../outbound/block-streaming-settings.js";
import { pinnedModelFor } from "../routing/pinned-model.js";
import { resolveAgentRoute, type Binding } from "../routing/resolve-agent-route.js";
import { peerSessionKey } from "../routing/peer-session-key.js";
import { findAcpBinding, type AcpBinding } from "../routing/acp-binding.js";
import type { AcpBoundChats } from "../acp-bound-chats.js";
import type { ThreadBindingStore, ThreadRef } from "../thread-bindings.js";
import { bindingExpiry, THREAD_BINDINGS_OFF, threadBindingSettings } from "../thread-binding-settings.js";
import type { InboundMedia, InboundMessage, InboundReaction } from "../types.js";
import type { InboundMediaStore } from "../inbound/media-store.js";
import { ParkedInbound } from "../inbound/parked-inbound.js";
import type { ImageBlock } from "../../models/messages.js";
import type { RunningAccount } from "./running-account.js";
import { MediaUnderstanding, type MediaMessage } from "./media-understanding.js";
import { InboundDebouncer } from "./inbound-debouncer.js";
import { messageReaction, type MessageReaction } from "./message-reaction.js";
import { DEFAULT_GROUP_HISTORY_LIMIT, GroupHistory, groupHistoryBlock, withContext } from "./group-history.js";
import { initialThreadHistory, threadHistoryBlock } from "./thread-history.js";
import { replyViaFor, roomEventText, unmentionedAreRoomEvents } from "./visible-replies.js";
import { retryStrandedReply } from "./stranded-reply.js";
import { BotLoopGuard } from "./bot-loop-guard.js";
import { botLoopSettingsFor } from "./bot-loop-settings.js";
import { contextVisibilityFor, withVisibleQuote, type ContextVisibility } from "./context-visibility.js";
import { ratingOfEmoji, reactionFeedbackNote, type ReactionFeedbackPort, type ReactionRating } from "./reaction-feedback.js";
import { reactionAsMessage, reactionContextKey, reactionNoticeText, reactionNotifies } from "./reaction-notices.js";
import type { SessionSystemEvents } from "../../sessions/system-events/session-system-events.js";
import type { InvocableSkill } from "../../agents/skills/invocable-skills.js";
import { stability } from "../../infra/stability/stability-recorder.js";

export interface InboundDispatchDeps {
  config(): OpenClawConfig;
  conversations: ConversationPort;
  store: SessionStore;
  dedupe: InboundDedupeCache;
  pairing: PairingStore;
  delivery: ReplyDelivery;
  logger: Logger;
  /** `/subagents …` when the sub-agent registry is present. */
  subagentsCommand?: (sessionKey: string, args: string) => Promise<string>;
  /** `/tasks`: the session's background tasks. */
  tasksCommand?: (sessionKey: string) => Promise<string>;
  /** `/acp …` when the ACP control plane is present. */
  acpCommand?: (sessionKey: string, args: string) => Promise<string>;
  /** `/skill`: the skills a user may run for an agent. */
  skillsCommand?: (agentId: string) => Promise<readonly InvocableSkill[]>;
  /** `/approve <id> <decision>`: exec approvals answered from a chat. */
  approveCommand?: (id: string, decision: string, by: string) => string;
  /** `/answer <id> <reply>`: ask_user questions answered from a chat. */
  answerCommand?: ChatCommandContext["answer"];
  /** `/goal`: the sessions' goals. */
  goals?: ChatCommandContext["goals"];
  /** The ask_user question a session's run waits on: a plain message in that session's chat answers it. */
  questionReplies?: Pick<QuestionBroker, "pendingIn" | "answerText" | "askersOf">;
  /** `/tools`: the tools the session's next turn could use, for this sender. */
  toolsCommand?: ChatCommandContext["tools"];
  /** `/config`, `/allowlist`, `/restart`, `/bash`: the gateway's administration, for the owner. */
  adminCommands?: ChatCommandContext["admin"];
  /** Threads (or chats) bound to a sub-agent's session: their messages go there instead. */
  threadBindings?: ThreadBindingStore;
  /** `/focus <target>`: the sub-agent it names, when the sub-agent registry is present. */
  focusTarget?: FocusTargetResolver;
  /** Chats bound to an ACP agent (`bindings[]` of `type: "acp"`), when the ACP control plane is present. */
  acpBound?: Pick<AcpBoundChats, "submit">;
  /** A message in the thread of a thread-bound ACP child: its next prompt; a refusal text for the chat, else undefined. */
  acpThreadFollowUp?: (childSessionKey: string, text: string) => string | undefined;
  /** Internal hooks hear `message:received` for each accepted message (not a duplicate, not ignored). */
  hooks?: InternalHookSink;
  /** Where `/tts audio` saves the speech it posts (`<state>/media/tts/`); absent: it posts none. */
  speechDir?: string;
  /** The gateway's Auto-TTS mode (`tts.enable`/`tts.disable`), which `/tts status` reports. */
  autoTtsPreference?: AutoTtsPreference;
  /** Where the files of messages for the agent are saved (`<state>/media/inbound/`). */
  media?: InboundMediaStore;
  /** Messages waiting in a debounce window, on disk so their adapter may acknowledge them. */
  parked?: ParkedInbound;
  /** Where reaction notices wait for their session's next message; absent: reactions make no notice. */
  systemEvents?: Pick<SessionSystemEvents, "add">;
  /** Records a 👍/👎 on a run's reply as feedback on that run; absent: reactions rate nothing. */
  reactionFeedback?: ReactionFeedbackPort;
}

/** What the rest of the pipeline needs to know about one accepted message. */
interface Routed {
  running: RunningAccount;
  message: FinalizedInbound;
  agentId: string;
  dedupeKey: string | null;
  target: DeliveryTarget;
  /** The chat and thread it was written in (what `/focus` binds). */
  chat: ThreadRef;
  /** The sessions whose sub-agents `/focus` may bind here: the chat's own and, in a thread, its parent chat's. */
  ownerSessionKeys: string[];
  /** The chat is bound to an ACP agent: what is not a command goes there. */
  acpBinding?: AcpBinding;
  /** The thread is bound to a sub-agent's session (`thread: true`, `/focus`). */
  bound?: boolean;
  /** Files the message carries, saved only when it goes to the agent. */
  media?: InboundMedia[];
  /** An unmentioned group message taken as quiet room context (`unmentionedInbound: room_event`). */
  roomEvent?: true;
  /** A command handed the agent this message (`/skill`, `/new <message>`): answered as usual, whatever `visibleReplies` says. */
  fromCommand?: true;
  /** The tool rules of the chat (its `tools` / `toolsBySender`) and of `tools.toolsBySender` for this sender. */
  chatTools?: LocatedToolRule;
  senderTools?: LocatedToolRule;
  /** Whether `tools.elevated` admits the sender for the routed agent. */
  elevated: ElevatedAccess;
  /** An inline `/elevated <level> <message>`: the level of this message's turn. */
  elevatedLevel?: ElevatedLevel;
  /** Inline `/think`, `/verbose`, `/reasoning` directives: this message's levels. */
  inlineLevels?: InlineLevels;
  /** The chat entry's `systemPrompt` and `skills` (a Telegram topic's over its group's). */
  chatPrompt?: string;
  chatSkills?: string[];
  /** Whose earlier messages (a new thread session's history) the agent may see: `contextVisibility` and the chat's sender list. */
  context?: { visibility: ContextVisibility; allowlisted: (senderId: string) => boolean };
}

/**
 * The inbound pipeline (see docs/channels.md): adapter message → access (pairing, allowlists,
 * mention gating) → route to an agent and session → `finalizeInbound` → dedupe → commands →
 * the conversation lane → the reply back to the same chat through the delivery ledger.
 * `dispatch` resolves once the message is safely recorded, so adapters may then commit their
 * platform offset; the reply is delivered later, when the run ends.
 */
export class InboundDispatcher {
  private readonly debouncer: InboundDebouncer<Routed>;
  /** Unmentioned group messages, handed to the model with the next mention (`historyLimit`). */
  private readonly history = new GroupHistory();
  /** Bot-to-bot message budgets (`botLoopProtection`), per conversation and bot pair. */
  private readonly botLoops = new BotLoopGuard();
  /** Dedupe keys of the parked messages now in a debounce window (a redelivery of one is dropped). */
  private readonly inWindow = new Set<string>();

  private readonly media: MediaUnderstanding;

  constructor(private readonly deps: InboundDispatchDeps) {
    this.debouncer = new InboundDebouncer<Routed>((batch) => this.submitBurst(batch));
    this.media = new MediaUnderstanding({ ...(deps.media ? { media: deps.media } : {}), config: deps.config, store: deps.store, logger: deps.logger });
  }

  /**
   * After an account started: the messages it had parked in a debounce window when the last
   * process ended go through the pipeline again (a message the ledger already holds is dropped
   * there); what does not end up in a window again is released.
   */
  async resumeParked(running: RunningAccount): Promise<void> {
    const parking = this.deps.parked;
    if (!parking) return;
    const parked = parking.parkedFor(running.channel, running.accountId);
    for (const { message } of parked) await this.dispatch(running, message, { parked: true });
    parking.release(parked.map((p) => p.key).filter((key) => !this.inWindow.has(key)));
  }

  /** `parked`: the message is already on disk in the parking (replayed at start). */
  async dispatch(running: RunningAccount, message: InboundMessage, how: { parked?: boolean } = {}): Promise<void> {
    const { channel, accountId, config: account } = running;
    const log = this.deps.logger;
    stability.record("message.received", { channel });
    // Another bot's message: a chat's own `allowBots` decides there (below); elsewhere the account's.
    if (message.senderIsBot && message.chatType === "direct" && !admitsBots(account.allowBots as AllowBots | undefined)) return;
    if (running.status.botId && message.senderId === running.status.botId) return;

    const decided = decideAccess({
      channel,
      account,
      message,
      pairedSenders: message.chatType === "direct" ? this.deps.pairing.approvedSenders(channel, accountId) : [],
      accessGroups: this.deps.config().accessGroups,
    });
    const access = decided.decision !== "allow" && approverAnswersInDm(this.deps.config(), account, { channel, accountId, ...message }) ? APPROVER_DM : decided;
    if (access.decision === "drop") {
      log[access.level ?? "debug"]({ channel, accountId, chatId: message.chatId, senderId: message.senderId, reason: access.reason }, "inbound message ignored");
      return;
    }
    if (access.decision === "pair") return this.offerPairing(running, message);
    const botRule = message.senderIsBot ? (access.entry?.allowBots ?? (account.allowBots as AllowBots | undefined)) : undefined;
    if (message.senderIsBot && !admitsBots(botRule)) return;

    const config = this.deps.config();
    const chat: ThreadRef = { channel, accountId, chatId: message.chatId, ...(message.threadId ? { threadId: message.threadId } : {}) };
    const boundSessionKey = this.boundSession(chat);
    // A bound thread is a conversation with its sub-agent: like a DM, it needs no @mention. Elsewhere
    // the patterns are those of the agent the message is routed to.
    const mentionPatternsOf = (agentId: string) =>
      mentionPatternsFor(
        account.mentionPatterns as readonly string[] | MentionPatternScope | undefined,
        findAgentEntry(config, agentId),
        config.messages?.groupChat?.mentionPatterns,
        conversationIdsOf(channel, message),
      );
    const mentionedFor = (agentId: string) =>
      message.chatType === "direct" || boundSessionKey !== undefined || wasMentioned(message, mentionPatternsOf(agentId), implicitMentionsFor(config, channel, accountId));
    let routed = this.route(running, message, { entryAgentId: access.entry?.agentId, mentionedFor, chat, boundSessionKey });
    // `allowBots: "mentions"`: another bot is heard only when it names this bot (an @mention or a
    // mention pattern); replying to the bot or posting in its thread is not enough.
    if (botRule === "mentions" && !wasMentioned(message, mentionPatternsOf(routed.agentId), EXPLICIT_ONLY)) {
      log.debug({ channel, accountId, chatId: message.chatId, senderId: message.senderId }, 'bot message without a mention of this bot ignored (allowBots: "mentions")');
      return;
    }
    // Every bot message allowBots lets in counts toward its pair's loop budget.
    if (message.senderIsBot && !this.admitBotMessage(running, message)) return;
    // A bound thread's messages belong to its sub-agent's session: the chat's prompt and skills are the chat's agent's.
    if (!routed.bound && access.entry?.systemPrompt?.trim()) routed = { ...routed, chatPrompt: access.entry.systemPrompt.trim() };
    if (!routed.bound && access.entry?.skills) routed = { ...routed, chatSkills: [...access.entry.skills] };
    const visibility = contextVisibilityFor(config, account);
    routed = { ...routed, message: withVisibleQuote(routed.message, visibility, access.allowlisted), context: { visibility, allowlisted: access.allowlisted } };
    const mentioned = routed.message.wasMentioned;
    // `/activation always` makes one group's session answer without a mention; the owner's commands need none either.
    const ownerCommand = routed.message.commandAuthorized && this.commandIn(routed) !== undefined;
    const heard = access.requireMention && !mentioned && !ownerCommand ? await this.heardMention(routed, access.entry, mentionPatternsOf(routed.agentId)) : false;
    if (heard) routed = { ...routed, message: { ...routed.message, wasMentioned: true } };
    if (access.requireMention && !mentioned && !heard && !ownerCommand && this.deps.store.peek(routed.message.sessionKey)?.groupActivation !== "always") {
      const historyLimit =
        (account.historyLimit as number | undefined) ??
        findAgentEntry(config, routed.agentId)?.groupChat?.historyLimit ??
        config.messages?.groupChat?.historyLimit ??
        DEFAULT_GROUP_HISTORY_LIMIT;
      // Group history is supplemental context: `contextVisibility` other than `all` keeps only allowlisted senders'.
      if (visibility === "all" || access.allowlisted(message.senderId)) this.history.record(routed.message.sessionKey, message.messageId, agentText(routed.message), historyLimit);
      log.debug({ channel, chatId: message.chatId }, "group message without a mention ignored (requireMention)");
      return;
    }
    if (routed.dedupeKey && this.isRepeat(routed, routed.dedupeKey)) {
      log.debug({ channel, dedupeKey: routed.dedupeKey }, "duplicate inbound message dropped");
      return;
    }

    this.deps.hooks?.emit({
      type: "message",
      action: "received",
      sessionKey: routed.message.sessionKey,
      context: {
        channel,
        accountId,
        from: message.senderId,
        ...(message.senderName ? { senderName: message.senderName } : {}),
        chatType: message.chatType,
        conversationId: message.chatId,
        ...(message.threadId ? { threadId: message.threadId } : {}),
        messageId: message.messageId,
        content: message.text,
        timestamp: message.timestamp,
        agentId: routed.agentId,
      },
    });
    routed = this.withInlineDirectives(routed);
    const command = this.commandIn(routed);
    if (command && !commandsAllowed(config.commands?.allowFrom, channel, { id: message.senderId }, config.accessGroups)) {
      // As OpenClaw: a typed command from someone `commands.allowFrom` leaves out is ignored; a native one is told.
      log.info({ channel, chatId: message.chatId, senderId: message.senderId, command: command.name }, "chat command ignored: sender not in commands.allowFrom");
      if (message.nativeCommand && this.maySend(routed)) {
        await this.deps.dedupe.whenDurable();
        await this.deps.delivery.queueText(`cmd:${routed.dedupeKey ?? randomUUID()}`, routed.target, "You are not authorized to use this command.");
      }
      return;
    }
    if (command) {
      // Decided before the command runs, so a `/send on` in a silenced chat is obeyed without an answer.
      const mayReply = this.maySend(routed);
      const result = await CHAT_COMMANDS.run(command, this.commandContext(routed));
      // A command that hands the agent a message (`/skill`, `/new <message>`) goes on like one the person typed.
      if (result.kind === "agent")
        routed = {
          ...routed,
          message: { ...routed.message, bodyForAgent: result.text },
          fromCommand: true,
          ...(result.settings?.elevated?.level ? { elevatedLevel: result.settings.elevated.level } : {}),
        };
      else {
        const reply = commandReply(result);
        await this.deps.dedupe.whenDurable();
        if (!mayReply) return this.logSilenced(routed, "command reply");
        const replyId = `cmd:${routed.dedupeKey ?? randomUUID()}`;
        if (reply) await this.deps.delivery.queueText(replyId, routed.target, reply);
        // Queued after the reply, so the chat shows them in order.
        if (result.kind === "reply" && result.followUp) void result.followUp.then((text) => this.deps.delivery.queueText(`${replyId}:more`, routed.target, text));
        return;
      }
    } else {
      const skillRun = await this.skillCommandIn(routed);
      if (skillRun) routed = { ...routed, message: { ...routed.message, bodyForAgent: skillRun }, fromCommand: true };
    }

    if (!command && !routed.fromCommand && (await this.answeredQuestion(routed))) return;

    if (routed.bound && isAcpSessionKey(routed.message.sessionKey) && this.deps.acpThreadFollowUp) {
      const refusal = this.deps.acpThreadFollowUp(routed.message.sessionKey, agentText(routed.message));
      await this.deps.dedupe.whenDurable();
      if (refusal) await this.deps.delivery.queueText(`acp-thread:${routed.dedupeKey ?? randomUUID()}`, routed.target, `⚠️ ${refusal}`);
      return;
    }
    if (routed.acpBinding && this.deps.acpBound) {
      await this.deps.acpBound.submit({
        binding: routed.acpBinding,
        key: routed.dedupeKey ?? `${channel}:${accountId}:${randomUUID()}`,
        text: agentText(routed.message),
        target: routed.target,
        chatSessionKey: routed.message.sessionKey,
      });
      await this.deps.dedupe.whenDurable();
      return;
    }

    // Where no mention is needed, an unmentioned group message can be room context instead of a request.
    if (message.chatType !== "direct" && !routed.bound && !mentioned && !command && unmentionedAreRoomEvents(config, routed.agentId)) routed = { ...routed, roomEvent: true };

    const inbound = config.messages?.inbound;
    const debounceMs = inbound?.byChannel?.[channel] ?? inbound?.debounceMs ?? 0;
    if (debounceMs > 0) return this.debounce(routed, message, debounceMs, how.parked === true);
    return this.submitToAgent([routed]);
  }

  /**
   * A reaction someone added or took back. Its sender must pass the access rules a message from
   * them in that chat meets (a stranger's DM reaction gets no pairing code). Then a 👍 or 👎 on a
   * message the bot sent as a run's reply is that person's rating of the run (`reactionFeedback`;
   * taken back, the rating goes if it is still theirs), and an added reaction, past the chat's
   * `reactionNotifications` mode, becomes a notice for the session that chat's messages go to,
   * carried in front of that session's next message. Resolves once the rating is recorded and the
   * notice is on disk.
   */
  async handleReaction(running: RunningAccount, reaction: InboundReaction): Promise<void> {
    const events = this.deps.systemEvents;
    const { channel, accountId, config: account } = running;
    if (reaction.senderIsBot || (running.status.botId && reaction.senderId === running.status.botId)) return;
    const config = this.deps.config();
    const rating = this.deps.reactionFeedback ? ratingOfEmoji(reaction.emoji) : undefined;
    // A removal makes no notice; it can only take a rating back.
    const notifies = !reaction.removed && events !== undefined && reactionNotifies(channel, account, reaction, config.accessGroups);
    if (!rating && !notifies) return;
    const message = reactionAsMessage(reaction);
    const access = decideAccess({
      channel,
      account,
      message,
      pairedSenders: message.chatType === "direct" ? this.deps.pairing.approvedSenders(channel, accountId) : [],
      accessGroups: config.accessGroups,
    });
    if (access.decision !== "allow") {
      this.deps.logger.debug({ channel, accountId, chatId: reaction.chatId, senderId: reaction.senderId }, "reaction ignored: its sender may not reach the agent here");
      return;
    }
    if (rating) await this.rateRunOf(running, reaction, rating);
    if (!notifies || !events) return;
    const chat: ThreadRef = { channel, accountId, chatId: reaction.chatId, ...(reaction.threadId ? { threadId: reaction.threadId } : {}) };
    const routed = this.route(running, message, { entryAgentId: access.entry?.agentId, mentionedFor: () => true, chat, boundSessionKey: this.boundSession(chat) });
    const sessionKey = routed.message.sessionKey;
    // A chat an ACP agent answers has no embedded session to carry the notice.
    if (routed.acpBinding || isAcpSessionKey(sessionKey)) return;
    const text = reactionNoticeText(channel, reaction);
    await events.add(sessionKey, text, { contextKey: reactionContextKey(channel, reaction), sessionId: this.deps.store.peek(sessionKey)?.sessionId });
    this.deps.logger.debug({ channel, accountId, sessionKey, notice: text }, "reaction notice queued for the session's next message");
  }

  /** The reacted message's run, when the bot sent it as (part of) a run's reply, gets the rating (or loses it); a failure is logged, never thrown at the adapter. */
  private async rateRunOf(running: RunningAccount, reaction: InboundReaction, rating: ReactionRating): Promise<void> {
    const { channel, accountId } = running;
    const runId = this.deps.delivery.runOfSentMessage({ channel, accountId, chatId: reaction.chatId, messageId: reaction.messageId });
    if (!runId) return;
    const feedback = this.deps.reactionFeedback;
    if (!feedback) return;
    const note = reactionFeedbackNote(channel, reaction);
    try {
      if (reaction.removed) await feedback.retract(runId, rating, note);
      else await feedback.rate(runId, rating, note);
      this.deps.logger.debug({ channel, accountId, runId, rating, removed: reaction.removed === true }, "reaction recorded as feedback on the run that wrote the message");
    } catch (err) {
      this.deps.logger.warn({ channel, accountId, runId, err: (err as Error).message }, "reaction feedback not recorded");
    }
  }

  /**
   * Into the sender's debounce window. A message that can be parked is written to the parking
   * first and then resolves at once, so its adapter acknowledges it and takes in the burst's next
   * message while the window is open; the merged turn's record releases it. One that cannot (no
   * dedupe key, files to fetch) resolves only once its turn is recorded.
   */
  private async debounce(routed: Routed, message: InboundMessage, windowMs: number, alreadyParked: boolean): Promise<void> {
    const windowKey = `${routed.message.sessionKey}|${routed.message.senderId}`;
    const key = routed.dedupeKey;
    const parking = this.deps.parked;
    if (!key || !parking || !ParkedInbound.canPark(message)) return this.debouncer.add(windowKey, routed, windowMs);
    if (this.inWindow.has(key)) {
      this.deps.logger.debug({ channel: routed.running.channel, dedupeKey: key }, "message already waiting in its debounce window dropped");
      return;
    }
    this.inWindow.add(key);
    if (!alreadyParked) {
      try {
        await parking.park(key, { channel: routed.running.channel, accountId: routed.running.accountId, message });
      } catch (err) {
        this.inWindow.delete(key);
        throw err;
      }
    }
    this.debouncer.add(windowKey, routed, windowMs).catch((err: unknown) => {
      this.deps.logger.error(
        { channel: routed.running.channel, dedupeKey: key, err: (err as Error).message },
        "debounced turn not recorded; its messages stay parked until the next start",
      );
    });
  }

  /** A debounce window's turn; once it is recorded, its parked messages are released. */
  private async submitBurst(batch: Routed[]): Promise<void> {
    const parkedKeys = batch.flatMap((r) => (r.dedupeKey && this.inWindow.has(r.dedupeKey) ? [r.dedupeKey] : []));
    try {
      await this.submitToAgent(batch);
      this.deps.parked?.release(parkedKeys);
    } finally {
      for (const key of parkedKeys) this.inWindow.delete(key);
    }
  }

  /**
   * Whether the gateway may send into the message's chat (`session.sendPolicy`, the session's
   * `/send`). A silenced chat's messages still reach the agent and its transcript; nothing goes
   * back: no reply, command answer, typing, draft or reaction.
   */
  private maySend(routed: Routed): boolean {
    const { sessionKey, chatType } = routed.message;
    const entry = this.deps.store.peek(sessionKey);
    return resolveSendPolicy(this.deps.config(), { sessionKey, entry, channel: routed.running.channel, chatType }) === "allow";
  }

  private logSilenced(routed: Routed, what: string): void {
    this.deps.logger.info(
      { channel: routed.running.channel, chatId: routed.target.chatId, sessionKey: routed.message.sessionKey },
      `${what} not sent: session send policy is deny`,
    );
  }

  /** An unknown DM sender under `dmPolicy: pairing`: one code, one reply, never the agent. */
  private async offerPairing(running: RunningAccount, message: InboundMessage): Promise<void> {
    const { channel, accountId } = running;
    const outcome = this.deps.pairing.request(channel, accountId, message.senderId, { senderName: message.senderName });
    if (outcome.status !== "created") {
      this.deps.logger.info({ channel, accountId, senderId: message.senderId, status: outcome.status }, "pairing request not re-sent");
      return;
    }
    const { code } = outcome.request;
    this.deps.logger.info({ channel, accountId, senderId: message.senderId, code }, "pairing requested");
    const text = [
      "OpenClaw: access not configured.",
      "",
      running.account.describeSender(message.senderId),
      "",
      `Pairing code: ${code}`,
      "",
      "Ask the bot owner to approve with:",
      `openclaw pairing approve ${channel} ${code}`,
    ].join("\n");
    await this.deps.delivery.queueText(`pairing:${channel}:${accountId}:${code}`, { channel, accountId, chatId: message.chatId }, text);
  }

  /**
   * The session `chat` is bound to, unless bindings are off, or the binding ran out
   * (`session.threadBindings` idle and age limits) or its session is gone: then it goes.
   */
  private boundSession(chat: ThreadRef): string | undefined {
    const bindings = this.deps.threadBindings;
    const binding = bindings?.get(chat);
    if (!binding) return undefined;
    const settings = threadBindingSettings(this.deps.config());
    if (!settings.enabled) return undefined;
    const now = Date.now();
    const gone = !this.deps.store.get(binding.sessionKey) ? "its session no longer exists" : bindingExpiry(binding, settings, now);
    if (!gone) {
      bindings!.touch(chat, now);
      return binding.sessionKey;
    }
    bindings!.unbind(chat);
    this.deps.logger.info({ channel: chat.channel, chatId: chat.chatId, threadId: chat.threadId, sessionKey: binding.sessionKey }, `thread binding dropped: ${gone}`);
    return undefined;
  }

  private route(
    running: RunningAccount,
    message: InboundMessage,
    how: { entryAgentId?: string; mentionedFor: (agentId: string) => boolean; chat: ThreadRef; boundSessionKey?: string },
  ): Routed {
    const { entryAgentId, mentionedFor, chat, boundSessionKey } = how;
    const config = this.deps.config();
    const { channel, accountId } = running;
    // A Discord thread is its own channel (chatId = threadId): its session hangs off the parent
    // channel's key (`…:channel:<parent>:thread:<thread>`), as Slack and Telegram threads do.
    const threadId = message.threadId && (message.threadId !== message.chatId || message.parentChatId) ? message.threadId : undefined;
    const peerId = message.chatType === "direct" ? message.senderId : (message.parentChatId ?? message.chatId);
    const routeInput = {
      channel,
      accountId,
      chatType: message.chatType,
      peerId,
      parentPeerId: message.parentChatId,
      guildId: message.guildId,
      teamId: message.teamId,
      memberRoleIds: message.memberRoleIds,
    };
    const routeAgent = resolveAgentRoute(config.bindings as Binding[] | undefined, routeInput, defaultAgentId(config));
    // A thread bound to a sub-agent (`/focus`) wins over the chat's ACP binding.
    const acpBinding = boundSessionKey ? undefined : findAcpBinding(config.bindings as Binding[] | undefined, routeInput);
    const routeAgentId = (routeAgent.matchedBy === "default" && entryAgentId ? entryAgentId : routeAgent.agentId).toLowerCase();
    const keyParams = { agentId: routeAgentId, channel, accountId, chatType: message.chatType, peerId };
    const ownSessionKey = peerSessionKey(config, { ...keyParams, ...(threadId ? { threadId } : {}) });
    const ownerSessionKeys = threadId ? [ownSessionKey, peerSessionKey(config, keyParams)] : [ownSessionKey];
    // A bound thread's messages (and the dedupe key built from them) belong to the bound session.
    const sessionKey = boundSessionKey ?? ownSessionKey;
    const agentId = boundSessionKey ? parseSessionKey(boundSessionKey).agentId : routeAgentId;
    const ownerList = config.commands?.ownerAllowFrom;
    const dmAllow = ((running.config.allowFrom as string[] | undefined) ?? []).filter((e) => e.trim() !== "*");
    // With no owner list, the DM allowlist the user wrote names the owner(s); an access group there names none.
    const senderIsOwner = ownerList?.length
      ? isOwner(ownerList, channel, message.senderId)
      : allowListMatches(channel, dmAllow, { id: message.senderId, username: message.senderUsername }, { allowNameMatching: allowsNameMatching(running.config) });
    const finalized = finalizeInbound({
      channel,
      accountId,
      message,
      sessionKey,
      wasMentioned: mentionedFor(agentId),
      commandAuthorized: senderIsOwner,
      botUsername: running.status.botUsername,
      botId: running.status.botId,
    });
    const replyToMode = (running.config.replyToMode as string | undefined) ?? "off";
    const target: DeliveryTarget = {
      channel,
      accountId,
      chatId: message.chatId,
      ...(message.threadId ? { threadId: message.threadId } : {}),
      ...(replyToMode !== "off" || message.nativeCommand ? { replyToMessageId: message.messageId } : {}),
      // `first` quotes the user's message in the reply's first chunk only, `all` in every chunk; where
      // a reply is an answer in the message's thread (`repliesInThread`), the whole reply goes there,
      // and so does the whole answer to a native command (its interaction, its response_url).
      ...(replyToMode === "all" || message.nativeCommand || (replyToMode === "first" && running.account.repliesInThread) ? { replyToEveryChunk: true as const } : {}),
    };
    // `username:` and `name:` rules match only where the account matches names at all (see ToolSender).
    const byName = allowsNameMatching(running.config);
    const toolSender = { channel, id: message.senderId, ...(byName ? { username: message.senderUsername, name: message.senderName } : {}) };
    const chatTools = chatToolRule(channel, running.config, message, toolSender);
    const senderTools = senderToolRule(config, agentId, toolSender);
    const elevated = elevatedAccess(config, agentId, toolSender);
    return {
      running,
      message: finalized,
      agentId,
      ...(chatTools ? { chatTools } : {}),
      ...(senderTools ? { senderTools } : {}),
      elevated,
      dedupeKey: buildInboundDedupeKey(finalized),
      target,
      chat,
      ownerSessionKeys,
      ...(acpBinding ? { acpBinding } : {}),
      ...(boundSessionKey ? { bound: true } : {}),
      ...(message.media?.length ? { media: message.media } : {}),
    };
  }

  private reactionFor(routed: Routed, roomEvent: boolean): MessageReaction | undefined {
    const { running, target, message, agentId } = routed;
    const reactionTarget = { chatId: target.chatId, ...(target.threadId ? { threadId: target.threadId } : {}) };
    return messageReaction(
      this.deps.config(),
      running.account,
      { channel: running.channel, target: reactionTarget, messageId: message.messageId, agentId, chatType: message.chatType, wasMentioned: message.wasMentioned, roomEvent },
      this.deps.logger,
    );
  }

  /** The status draft of a run that works a while (`streaming.mode: progress`), where the platform can edit. */
  private progressFor(running: RunningAccount, target: DeliveryTarget, runId: string, detail: ToolProgressDetail): ProgressDraft | undefined {
    const streaming = running.config.streaming as ({ mode?: string } & Parameters<typeof progressDraftSettings>[0]) | undefined;
    if (streaming?.mode !== "progress" || !running.account.editMessage) return undefined;
    return new ProgressDraft(running.account, { chatId: target.chatId, threadId: target.threadId }, progressDraftSettings(streaming, runId, detail));
  }

  /** A draft edited while the model writes (`streaming.mode: partial`), where the platform can edit. */
  private previewFor(running: RunningAccount, target: DeliveryTarget, reasoning: boolean, detail: ToolProgressDetail): PreviewStream | undefined {
    const streaming = running.config.streaming as
      | { mode?: string; throttleMs?: number; preview?: { toolProgress?: boolean; commandText?: "status" | "raw"; chunk?: { minChars?: number; maxChars?: number } } }
      | undefined;
    if ((streaming?.mode !== "partial" && streaming?.mode !== "block") || !running.account.editMessage) return undefined;
    const limit = running.limits.textChunkLimit;
    return new PreviewStream(
      running.account,
      { chatId: target.chatId, threadId: target.threadId },
      {
        throttleMs: streaming.throttleMs ?? 1_000,
        maxChars: running.limits.textChunkLimit,
        toolProgress: streaming.preview?.toolProgress ?? true,
        commandText: streaming.preview?.commandText ?? "status",
        detail,
        reasoning,
        ...(streaming.mode === "block" ? { chunk: previewChunk(streaming.preview?.chunk, limit) } : {}),
      },
    );
  }

  /** The run's answer in blocks while it is written (`blockStreamingDefault`, `streaming.block`), where that is on. */
  private blockStreamFor(routed: Routed, runId: string): BlockReplyStream | undefined {
    const settings = blockStreamingFor(this.deps.config(), routed.running, routed.agentId);
    if (!settings) return undefined;
    const { sessionKey } = routed.message;
    return new BlockReplyStream(
      settings,
      (text, index, model) => this.deps.delivery.queueBlock(runId, sessionKey, index, text, model),
      (err) => this.deps.logger.warn({ runId, err: err.message }, "a block reply could not be recorded for delivery; it is not sent"),
    );
  }

  /**
   * A message in a chat whose session's run waits on an ask_user question answers it (an option's
   * number or text, or free text), as OpenClaw takes a plain reply; it starts no turn. Only from
   * one the question is for (mayAnswerInChat): anyone else's message goes to the agent as usual.
   * True when the message was taken as the answer, or told why it does not answer (a
   * multi-question reply missing a line).
   */
  private async answeredQuestion(routed: Routed): Promise<boolean> {
    const questions = this.deps.questionReplies;
    const waiting = questions?.pendingIn(routed.message.sessionKey);
    if (!questions || !waiting) return false;
    const text = routed.message.bodyForAgent.trim();
    if (!text) return false;
    const key = `${routed.running.channel}:${routed.message.senderId}`;
    if (!mayAnswerInChat(questions.askersOf(waiting.id), { key, chatType: routed.message.chatType, owner: routed.message.commandAuthorized })) return false;
    // Accepted by the waiting run before the answer is taken, and on disk before the platform is
    // acknowledged: a redelivery after a crash is then a repeat, not a message for the agent.
    const accepted = routed.dedupeKey
      ? this.deps.conversations.acceptAnswer(routed.dedupeKey, { runId: waiting.runId!, sessionKey: routed.message.sessionKey, method: "channel" })
      : undefined;
    const problem = questions.answerText(waiting.id, text, key);
    await Promise.all([this.deps.dedupe.whenDurable(), accepted]);
    if (problem && this.maySend(routed)) await this.deps.delivery.queueText(`answer:${routed.dedupeKey ?? randomUUID()}`, routed.target, `⚠️ ${problem}`);
    return true;
  }

  /** Bot loop protection: another bot's message counts for its pair with this bot in this chat; past the budget the pair is muted. */
  private admitBotMessage(running: RunningAccount, message: InboundMessage): boolean {
    const { channel, accountId } = running;
    const settings = botLoopSettingsFor(this.deps.config(), channel, accountId);
    const verdict = this.botLoops.admit(
      { scope: `${channel}:${accountId}:${message.chatId}`, senderBotId: message.senderId, receiverBotId: running.status.botId ?? `${channel}:${accountId}` },
      settings,
    );
    if (verdict.admit) return true;
    const log = { channel, accountId, chatId: message.chatId, senderId: message.senderId };
    if (verdict.tripped) {
      this.deps.logger.warn(
        { ...log, maxEventsPerWindow: settings.maxEventsPerWindow, windowSeconds: settings.windowSeconds, cooldownSeconds: settings.cooldownSeconds },
        "bot loop protection: this bot pair went over its message budget; its messages are dropped for the cooldown (botLoopProtection)",
      );
    } else this.deps.logger.debug(log, "bot message dropped: its pair is in the bot loop cooldown");
    return false;
  }

  /**
   * Claims the message's key; true when it was handled before. The dedupe cache decides alone for
   * what never reaches the conversation ledger (commands) and for a bound ACP chat, whose turn is
   * recorded before its claim is acknowledged. For the agent the ledger decides: a key claimed
   * before a crash may never have been accepted, and the ledger remembers a day, the cache 20
   * minutes, so a platform redelivering later (an update Telegram kept while the gateway was
   * down) is still known.
   */
  private isRepeat(routed: Routed, key: string): boolean {
    const fresh = this.deps.dedupe.claim(key);
    if (!this.isAgentBound(routed) || routed.acpBinding) return !fresh;
    return this.deps.conversations.hasAccepted(key);
  }

  private isAgentBound(routed: Routed): boolean {
    return !this.commandIn(routed);
  }

  /**
   * A user-invocable skill run by its own command (`/haiku about lobsters`): the text the agent is
   * handed, as `/skill` hands it; undefined for anything else, a chat bound to an ACP agent (its
   * agent has skills of its own), or a sender `commands.allowFrom` leaves out (the text then goes
   * on as it is).
   */
  private async skillCommandIn(routed: Routed): Promise<string | undefined> {
    const text = routed.message.bodyForCommands;
    const config = this.deps.config();
    if (!this.deps.skillsCommand || config.commands?.text === false || !text.trimStart().startsWith("/")) return undefined;
    if (routed.acpBinding || (routed.bound && isAcpSessionKey(routed.message.sessionKey))) return undefined;
    if (!commandsAllowed(config.commands?.allowFrom, routed.running.channel, { id: routed.message.senderId }, config.accessGroups)) return undefined;
    return skillCommandText(text, skillCommands(await this.deps.skillsCommand(routed.agentId)));
  }

  /**
   * OpenClaw's audio preflight (on Telegram): a group message that needs a mention and carries no
   * text of its own, only a recording, is transcribed first, and a mention pattern in the transcript counts as
   * a mention. The chat's (or topic's) `disableAudioPreflight` turns it off there; a failed
   * transcription is no mention. The work is kept, so the agent's turn reuses the transcript.
   */
  private async heardMention(routed: Routed, entry: ChatEntry | undefined, patterns: MentionPatterns | undefined): Promise<boolean> {
    if (routed.running.channel !== "telegram" || entry?.disableAudioPreflight === true || !routed.media?.some((item) => item.kind === "audio")) return false;
    if (routed.message.text.trim() && !/^<media:[a-z_]+>$/.test(routed.message.text.trim())) return false;
    const transcript = await this.media.transcript(mediaMessageOf(routed));
    if (!transcript) return false;
    const noImplicit = { replyToBot: false, threadParticipation: false };
    return wasMentioned({ ...routed.message, text: transcript, mentionedBot: false }, patterns, noImplicit);
  }

  /**
   * A command-authorized sender's inline `/think`, `/verbose` and `/reasoning` directives, taken out
   * of the message and kept as its turn's levels. A message of directives alone stays as it is, for
   * the chat commands; so does everyone else's (their `/think` is text), and a message for an ACP
   * agent (its harness has levels of its own).
   */
  private withInlineDirectives(routed: Routed): Routed {
    const { message } = routed;
    if (!message.commandAuthorized || this.deps.config().commands?.text === false) return routed;
    if (routed.acpBinding || (routed.bound && isAcpSessionKey(message.sessionKey))) return routed;
    const forCommands = extractInlineDirectives(message.bodyForCommands);
    if (forCommands.found === 0 || !forCommands.text) return routed;
    const forAgent = extractInlineDirectives(message.bodyForAgent);
    return { ...routed, message: { ...message, bodyForCommands: forCommands.text, bodyForAgent: forAgent.text }, inlineLevels: forCommands.levels };
  }

  /** The chat command the message runs, unless text commands are off (`commands.text: false`). */
  private commandIn(routed: Routed): MatchedCommand | undefined {
    if (this.deps.config().commands?.text === false) return undefined;
    return matchChatCommand(routed.message.bodyForCommands, "channel", this.deps.config());
  }

  private commandContext(routed: Routed): ChatCommandContext {
    const { message } = routed;
    const bindings = this.deps.threadBindings;
    const speechDir = this.deps.speechDir;
    const focusDeps = bindings && { bindings, chat: routed.chat, ownerSessionKeys: routed.ownerSessionKeys, resolveTarget: this.deps.focusTarget };
    return {
      surface: "channel",
      sessionKey: message.sessionKey,
      idempotencyKey: routed.dedupeKey ?? `${routed.running.channel}:${randomUUID()}`,
      method: "channel",
      senderIsOwner: message.commandAuthorized,
      conversations: this.deps.conversations,
      config: this.deps.config,
      sessions: this.deps.store,
      ...(this.deps.subagentsCommand ? { subagents: this.deps.subagentsCommand } : {}),
      ...(this.deps.tasksCommand ? { tasks: this.deps.tasksCommand } : {}),
      ...(this.deps.acpCommand ? { acp: this.deps.acpCommand } : {}),
      ...(this.deps.approveCommand ? { approve: this.deps.approveCommand } : {}),
      ...(this.deps.answerCommand ? { answer: this.deps.answerCommand } : {}),
      ...(this.deps.goals ? { goals: this.deps.goals } : {}),
      ...(this.deps.toolsCommand ? { tools: this.deps.toolsCommand } : {}),
      ...(this.deps.skillsCommand ? { skills: this.deps.skillsCommand } : {}),
      ...(this.deps.adminCommands ? { admin: this.deps.adminCommands } : {}),
      elevated: routed.elevated,
      ...execApproverOf(this.deps.config(), message),
      ...(this.deps.autoTtsPreference ? { autoTtsPreference: this.deps.autoTtsPreference } : {}),
      ...(speechDir && this.maySend(routed)
        ? {
            speech: {
              dir: speechDir,
              post: async (file) => {
                await routed.running.account.sendFile({ chatId: routed.target.chatId, ...(routed.target.threadId ? { threadId: routed.target.threadId } : {}) }, file);
              },
            },
          }
        : {}),
      chat: {
        channel: message.channel,
        accountId: message.accountId,
        senderId: message.senderId,
        to: message.chatId,
        chatType: message.chatType,
        ...(message.senderUsername ? { senderUsername: message.senderUsername } : {}),
        ...(message.threadId ? { threadId: message.threadId } : {}),
      },
      ...(focusDeps
        ? {
            focus: {
              focus: (target: string) => (threadBindingSettings(this.deps.config()).enabled ? runFocusCommand(target, focusDeps) : `⚠️ /focus is off: ${THREAD_BINDINGS_OFF}.`),
              unfocus: () => runUnfocusCommand(focusDeps),
            },
          }
        : {}),
    };
  }

  /** The message as the agent reads it, with a line per file it carries (where it was saved, or why not), and its images. */
  private async withSavedMedia(routed: Routed): Promise<{ text: string; images: ImageBlock[] }> {
    if (!routed.media) return { text: agentText(routed.message), images: [] };
    const { body, lines, images } = await this.media.forAgent(mediaMessageOf(routed));
    return { text: [agentText({ ...routed.message, bodyForAgent: body }), ...lines].join("\n"), images };
  }

  /**
   * Slack's `thread.inheritParent`: a thread's new session starts with its channel's conversation,
   * copied as a forked session's is (over the fork limit, it starts without it, logged). Called
   * after the thread's own history was read, which only a new session gets.
   */
  private inheritParent(routed: Routed): void {
    const { message, running } = routed;
    const parentKey = routed.ownerSessionKeys[1];
    if (running.channel !== "slack" || (running.config.thread as { inheritParent?: boolean } | undefined)?.inheritParent !== true) return;
    if (!message.threadId || routed.bound || !parentKey || this.deps.store.peek(message.sessionKey) || !this.deps.store.peek(parentKey)) return;
    this.deps.store.ensure(message.sessionKey, { agentId: routed.agentId });
    const fork = this.deps.conversations.fork(parentKey, message.sessionKey);
    if (fork.forked) this.deps.logger.debug({ sessionKey: message.sessionKey, from: parentKey, messages: fork.messages }, "thread session started with its channel's conversation");
    else
      this.deps.logger.warn(
        { sessionKey: message.sessionKey, from: parentKey },
        `thread session started without its channel's conversation (thread.inheritParent): ${fork.reason}`,
      );
  }

  /** A new thread session's first turn: the thread's earlier messages, where the platform can read them back. */
  private threadHistoryOf(batch: Routed[]) {
    const { message, running, context } = batch[batch.length - 1]!;
    return initialThreadHistory({
      account: running.account,
      accountConfig: running.config,
      chatId: message.chatId,
      threadId: message.threadId,
      beforeMessageId: batch[0]!.message.messageId,
      newSession: this.deps.store.peek(message.sessionKey) === undefined,
      botId: running.status.botId,
      // A turn that never passed the access rules shows only the bot's own posts.
      visibility: context?.visibility ?? "allowlist",
      allowlisted: context?.allowlisted ?? (() => false),
      logger: this.deps.logger,
    });
  }

  /**
   * One turn for one message, or for a debounced burst from one sender: the last message's key
   * names the run, and the ledger records every other key of the burst with it (`mergedKeys`), so
   * a platform redelivering any message of the burst finds it accepted.
   */
  private async submitToAgent(batch: Routed[]): Promise<void> {
    const last = batch[batch.length - 1]!;
    const { message, running } = last;
    const dispatchedAt = Date.now();
    stability.record("message.dispatch.started", { channel: running.channel, count: batch.length });
    const runId = last.dedupeKey ?? `${running.channel}:${running.accountId}:${randomUUID()}`;
    const mergedKeys = batch.flatMap((r) => (r.dedupeKey && r.dedupeKey !== runId ? [r.dedupeKey] : []));
    const parts = await Promise.all(batch.map((r) => this.withSavedMedia(r)));
    const roomEvent = batch.every((r) => r.roomEvent);
    const said = roomEvent ? roomEventText(batch.map((r, i) => ({ messageId: r.message.messageId, text: parts[i]!.text }))) : parts.map((p) => p.text).join("\n");
    const images = parts.flatMap((p) => p.images);
    const thread = await this.threadHistoryOf(batch);
    // A pending group message the thread history shows already is not shown twice.
    const shown = new Set(thread.map((e) => e.messageId));
    const group = message.chatType === "direct" ? [] : this.history.take(message.sessionKey).filter((e) => !shown.has(e.messageId));
    const text = withContext([threadHistoryBlock(thread), groupHistoryBlock(group)], said);
    this.inheritParent(last);
    const config = this.deps.config();
    const replyVia = replyViaFor(config, message.chatType, { roomEvent, command: batch.some((r) => r.fromCommand) });
    const mayReply = this.maySend(last);
    // `tts.auto: inbound` speaks only the answer to a voice message (or another audio file).
    const inboundAudio = batch.some((r) => r.message.media?.some((m) => m.kind === "audio") === true);
    if (mayReply) await this.deps.delivery.expect(runId, last.target, { sessionKey: message.sessionKey, runId, ...(replyVia ? { replyVia } : {}) });
    // A private final text is never streamed into the chat.
    const streams = mayReply && !replyVia;
    const blocks = streams ? this.blockStreamFor(last, runId) : undefined;
    const senderIsOwner = batch.every((r) => r.message.commandAuthorized);
    // `/reasoning stream`: the draft shows the model's reasoning until the answer begins.
    const draftReasoning =
      reasoningLevelFor(config, last.agentId, last.inlineLevels?.reasoningLevel ?? this.deps.store.peek(message.sessionKey)?.reasoningLevel, senderIsOwner) === "stream";
    const detail = toolProgressDetailFor(config, last.agentId);
    const preview = streams && !blocks ? this.previewFor(running, last.target, draftReasoning, detail) : undefined;
    const progress = streams && !blocks ? this.progressFor(running, last.target, runId, detail) : undefined;
    // A room event keeps the room quiet: no typing, no status reactions.
    const typingMode = mayReply && !roomEvent ? typingModeFor(config, last.agentId, message) : "never";
    let stopTyping: (() => void) | undefined;
    const typingReaction = running.config.typingReaction as string | undefined;
    const startTyping = () => {
      if (stopTyping) return;
      const stopLoop = startTypingLoop(running.account, { chatId: last.target.chatId, threadId: last.target.threadId }, typingIntervalMs(config, running.config));
      const stopReaction = typingReaction
        ? startTypingReaction(running.account, last.target, message.messageId, typingReaction, (what, err) =>
            this.deps.logger.warn({ channel: running.channel, chatId: last.target.chatId, err: err.message }, what),
          )
        : undefined;
      stopTyping = () => {
        stopLoop();
        stopReaction?.();
      };
    };
    const waitsForOutput = typingMode === "thinking" || typingMode === "message";
    const reaction = mayReply ? this.reactionFor(last, roomEvent) : undefined;
    const onEvent =
      preview || progress || blocks || waitsForOutput || reaction?.onEvent
        ? (event: AgentEvent) => {
            preview?.onEvent(event);
            progress?.onEvent(event);
            blocks?.onEvent(event);
            if (waitsForOutput && startsTyping(typingMode, event)) startTyping();
            reaction?.onEvent?.(event);
          }
        : undefined;
    const pinnedModel = pinnedModelFor(config, running.channel, message);
    const turnSettings: TurnSettings = {
      ...(pinnedModel ? { modelOverride: pinnedModel } : {}),
      ...(replyVia ? { replyVia } : {}),
      ...(last.chatTools ? { chatTools: last.chatTools } : {}),
      ...(last.senderTools ? { senderTools: last.senderTools } : {}),
      ...(last.chatSkills ? { chatSkills: last.chatSkills } : {}),
      ...dmHistoryLimitFor(config, running.config, message),
      // A merged burst is elevated only when every sender in it is admitted.
      ...(batch.every((r) => r.elevated.allowed) ? { elevated: last.elevatedLevel ? { level: last.elevatedLevel } : {} } : {}),
      ...last.inlineLevels,
    };
    const outcome = await this.deps.conversations.submit({
      message: text,
      ...(last.chatPrompt ? { extraSystemPrompt: last.chatPrompt } : {}),
      ...(images.length > 0 ? { images } : {}),
      ...(Object.keys(turnSettings).length > 0 ? { turnSettings } : {}),
      idempotencyKey: runId,
      ...(mergedKeys.length > 0 ? { mergedKeys } : {}),
      sessionKey: message.sessionKey,
      agentId: last.agentId,
      method: "channel",
      senderIsOwner,
      ...(onEvent ? { onEvent } : {}),
      origin: {
        channel: running.channel,
        accountId: running.accountId,
        chatType: message.chatType,
        to: message.chatId,
        threadId: message.threadId,
        messageId: message.messageId,
        senderId: message.senderId,
        senderName: message.senderName,
        ...(batch.length > 1 ? { senderIds: batch.map((r) => r.message.senderId) } : {}),
      },
    });
    await this.deps.dedupe.whenDurable();
    stability.record("message.dispatch.completed", { channel: running.channel, outcome: outcome.kind, durationMs: Date.now() - dispatchedAt });
    if (outcome.kind === "accepted") {
      stability.record("session.turn.created", { channel: running.channel, source: last.agentId, outcome: "message" });
      void outcome.run.done.then((record) =>
        stability.record("message.processed", {
          channel: running.channel,
          durationMs: Date.now() - dispatchedAt,
          outcome: record.status === "ok" ? "completed" : "error",
          reason: record.status,
        }),
      );
    }
    switch (outcome.kind) {
      case "accepted": {
        if (!mayReply) {
          void outcome.run.done.then(() => this.logSilenced(last, "reply"));
          return;
        }
        reaction?.accepted();
        if (typingMode === "instant") startTyping();
        void outcome.run.done.then(async (record) => {
          stopTyping?.();
          reaction?.ended?.(record.status === "ok");
          const previewMessageId = await preview?.finish();
          const streamed = await blocks?.finish();
          // A change of model fallback state is told in DMs only, once, ahead of the reply.
          const notice = record.result?.modelNotice;
          if (notice && message.chatType === "direct") await this.deps.delivery.queueText(`notice:${runId}`, last.target, notice);
          // `/reasoning on`: the run's reasoning, a message of its own ahead of the reply (a room event stays quiet).
          const reasoning = record.result?.reasoning;
          if (reasoning && !roomEvent) await this.deps.delivery.queueText(`reasoning:${runId}`, last.target, `${REASONING_HEADING}\n${reasoning}`);
          // `/verbose on|full`: the run's tool calls, ahead of the reply (a room event stays quiet).
          const tools = record.result?.toolSummary;
          if (tools && !roomEvent) await this.deps.delivery.queueText(`tools:${runId}`, last.target, tools);
          await this.deps.delivery.deliverRun(runId, message.sessionKey, record, previewMessageId, streamed, { inboundAudio });
          if (replyVia === "message_tool") {
            await retryStrandedReply(
              this.deps,
              { runId, agentId: last.agentId, target: last.target, message: last.message, chatTools: last.chatTools, senderTools: last.senderTools },
              record,
            );
          }
          // A failed run's draft stays, as the record of what it tried.
          await progress?.finish(record.status !== "ok" && record.status !== "aborted");
        });
        return;
      }
      case "duplicate":
        // The first delivery (or the restart recovery) answers it.
        stopTyping?.();
        void preview?.finish();
        void progress?.finish(false);
        return;
      case "rejected":
        stopTyping?.();
        if (!mayReply) return this.logSilenced(last, "refusal");
        await this.deps.delivery.queueText(runId, last.target, `⚠️ ${outcome.notice}`);
        return;
    }
  }
}

/**
 * The ids a `mentionPatterns` policy may name for this message's conversation, its own first: a
 * Telegram forum topic as `<chatId>:topic:<threadId>` then its group, a Discord thread then its
 * channel, a Slack channel.
 */
function conversationIdsOf(channel: string, message: InboundMessage): string[] {
  if (channel === "telegram" && message.threadId) return [`${message.chatId}:topic:${message.threadId}`, message.chatId];
  return message.parentChatId ? [message.chatId, message.parentChatId] : [message.chatId];
}

/**
 * A DM session of its own (not the shared main session) sees at most `dms.<peer>.historyLimit`,
 * else `dmHistoryLimit`, earlier user turns; unset: the whole history that fits.
 */
function dmHistoryLimitFor(config: OpenClawConfig, account: Readonly<Record<string, unknown>>, message: FinalizedInbound): { userTurnLimit?: number } {
  if (message.chatType !== "direct" || isMainSessionKey(message.sessionKey, config.session.mainKey)) return {};
  const perPeer = (account.dms as Record<string, { historyLimit?: number }> | undefined)?.[message.senderId]?.historyLimit;
  const limit = perPeer ?? (account.dmHistoryLimit as number | undefined);
  return limit === undefined ? {} : { userTurnLimit: limit };
}

/** A command's answer as the chat shows it. */
function commandReply(result: Exclude<ChatCommandResult, { kind: "agent" }>): string {
  switch (result.kind) {
    case "reply":
      return result.text;
    case "reset":
      return "✅ New session started.";
    case "stopped":
      if (result.runIds.length === 0 && result.subagents === 0) return "Nothing is running.";
      return result.subagents > 0 ? `⏹ Stopped (and ${result.subagents} sub-agent${result.subagents === 1 ? "" : "s"}).` : "⏹ Stopped.";
  }
}

/** What the agent reads: in groups it must know who is speaking, and a quoted message is context. */
function agentText(message: FinalizedInbound): string {
  const who = message.senderName ?? (message.senderUsername ? `@${message.senderUsername}` : message.senderId);
  const body = message.chatType === "direct" ? message.bodyForAgent : `[${who}] ${message.bodyForAgent}`;
  const replyToBody = message.replyTo?.body;
  if (!replyToBody) return body;
  const quoted = replyToBody.length > 500 ? `${replyToBody.slice(0, 500)}…` : replyToBody;
  return `${body}\n\n(in reply to: "${quoted}")`;
}

/** `streaming.preview.chunk` for `mode: block`: OpenClaw's defaults (200 / 800), within the channel's message limit, minChars at most maxChars. */
function previewChunk(chunk: { minChars?: number; maxChars?: number } | undefined, limit: number): { minChars: number; maxChars: number } {
  const maxChars = Math.min(chunk?.maxChars ?? 800, limit);
  return { minChars: Math.min(chunk?.minChars ?? 200, maxChars), maxChars };
}

/** What the media work needs of a routed message. */
function mediaMessageOf(routed: Routed): MediaMessage {
  const { message, running } = routed;
  return {
    ...(routed.media ? { media: routed.media } : {}),
    agentId: routed.agentId,
    channel: running.channel,
    accountId: running.accountId,
    account: running.account,
    accountConfig: running.config,
    chatId: message.chatId,
    ...(message.threadId ? { threadId: message.threadId } : {}),
    sessionKey: message.sessionKey,
    body: message.bodyForAgent,
  };
}

/** An exec approver's DM admitted for their `/approve` line alone, past the DM policy. */
const APPROVER_DM: AccessDecision = { decision: "allow", requireMention: false, allowlisted: () => false };

/**
 * Whether a DM is an exec approver answering (`/approve …`, typed or a button): the approvers are
 * asked in their DMs, so their answer is taken whether or not `allowFrom` or pairing admits them
 * (as in OpenClaw, being an approver and being allowed to talk to the bot are separate), unless
 * the account's DMs are disabled.
 */
function approverAnswersInDm(
  config: OpenClawConfig,
  account: Readonly<Record<string, unknown>>,
  message: { channel: string; accountId: string; chatType: string; senderId: string; text: string },
): boolean {
  if (message.chatType !== "direct" || account.dmPolicy === "disabled" || !APPROVE_LINE.test(message.text)) return false;
  if (!isApprovalClientChannel(message.channel)) return false;
  return chatExecApprovers(config, message.channel, message.accountId)?.includes(message.senderId) === true;
}

const APPROVE_LINE = /^\/approve(@\S+)?\s+\S+\s+\S+\s*$/i;

/** Where the account's exec approvers answer (see chatExecApprovers), whether the sender is one of them; elsewhere, nothing (the owners answer). */
function execApproverOf(config: OpenClawConfig, message: { channel: string; accountId: string; senderId: string }): { execApprover?: boolean } {
  if (!isApprovalClientChannel(message.channel)) return {};
  const approvers = chatExecApprovers(config, message.channel, message.accountId);
  return approvers ? { execApprover: approvers.includes(message.senderId) } : {};
}
