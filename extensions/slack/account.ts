import { LRUCache } from "lru-cache";
import type { App, Receiver } from "@slack/bolt";
import {
  ChannelPermanentError,
  type ChannelAccount,
  type ChannelAccountContext,
  type OutboundFile,
  type OutboundTarget,
  type OutboundText,
  type ChatButton,
  type SentMessage,
  type SessionPeer,
  type StatusReactionKey,
  type ThreadHistoryMessage,
} from "../../src/channels/types.js";
import { describeSlackError, isAuthError, SlackStartError, slackErrorCode, toChannelError } from "./api-errors.js";
import { SlackDirectory } from "./directory.js";
import { slackEmojiName } from "./emoji-names.js";
import { SlackHttpReceiver } from "./http-receiver.js";
import {
  chatKindOf,
  isDeliverable,
  isReportableReaction,
  profileFromEvent,
  toInboundMessage,
  toInboundReaction,
  type BotIdentity,
  type SlackMessageEvent,
  type SlackReactionEvent,
} from "./inbound.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackSettings } from "./settings.js";
import { createBoltLogger, deliveryClientOptions, loadBolt, socketClientOptions, type SlackBolt, type SlackWebClient } from "./slack-sdk.js";
import { SocketSupervisor } from "./socket-supervisor.js";
import { buttonBlocks, buttonPressInbound, type BlockActionsBody } from "./block-actions.js";
import { isResponseUrlReplyId, ResponseUrlReplies, type Respond } from "./response-url-replies.js";
import { slashCommandInbound, slashResponseType, slashUsage, type SlashCommandPayload } from "./slash-command.js";
import { uploadFile } from "./file-upload.js";
import { slackMedia } from "./media.js";
import { SentMessageMemory } from "../../src/channels/outbound/sent-message-memory.js";
import { parseSlackTarget } from "./targets.js";
import { readThreadHistory } from "./thread-history.js";

/** Slack closes a socket whose pongs stop for this long (OpenClaw uses a fixed 15 s). */
const PONG_TIMEOUT_MS = 15_000;
/** How many recent messages are remembered to pass on only one of `message` + `app_mention`. */
const RECENT_MESSAGES = 1_000;

interface SlackSdk {
  bolt: SlackBolt;
  boltLogger: ReturnType<typeof createBoltLogger>;
  api: SlackWebClient;
  directory: SlackDirectory;
}

/**
 * One Slack bot: Socket Mode (default) or HTTP Events through the gateway's own port, both fed to
 * a bolt App that only translates events into inbound messages. Sends go through a WebClient that never
 * retries on its own (the delivery ledger does).
 */
export class SlackAccount implements ChannelAccount {
  /** Slack has no quote-reply: replying to a message is answering in its thread. */
  readonly repliesInThread = true as const;
  private readonly secrets: string[];
  private sdk: Promise<SlackSdk> | undefined;
  private identity: BotIdentity | undefined;
  private app: App | undefined;
  private preparing: Promise<void> | undefined;
  private supervisor: SocketSupervisor | undefined;
  private httpReceiver: SlackHttpReceiver | undefined;
  private running = false;
  /**
   * A mention arrives twice, as `message` and as `app_mention`, and only the first is passed on.
   * Leaving it to the core's dedupe is not safe: `app_mention` has no `channel_type`, so the two
   * inbound messages could disagree on the chat kind and land in different sessions.
   */
  private readonly recentMessages = new LRUCache<string, true>({ max: RECENT_MESSAGES });
  /** Slash commands and button presses waiting for their answers on a `response_url`. */
  private readonly responseUrlReplies = new ResponseUrlReplies();
  /** What this account posted, and in which thread: a reaction to one is a reaction to the bot, in that thread. */
  private readonly sentMessages = new SentMessageMemory();

  constructor(
    private readonly context: ChannelAccountContext,
    private readonly settings: SlackSettings,
    private readonly configProblems: string[],
  ) {
    this.secrets = [settings.botToken, settings.appToken, settings.signingSecret].filter((secret): secret is string => Boolean(secret));
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (this.configProblems.length > 0) {
      const message = this.configProblems.join(" ");
      this.context.reportStatus({ running: false, connected: false, mode: this.settings.mode, lastError: message });
      throw new ChannelPermanentError(message);
    }
    this.running = true;
    this.context.reportStatus({ running: true, connected: false, mode: this.settings.mode, lastError: null });
    try {
      if (this.settings.mode === "socket") await this.startSocketMode();
      else await this.startHttpMode();
    } catch (error) {
      this.running = false;
      this.context.reportStatus({ running: false, connected: false });
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.supervisor?.stop();
    this.supervisor = undefined;
    this.app = undefined;
    this.context.reportStatus({ running: false, connected: false });
  }

  async send(target: OutboundTarget, text: OutboundText): Promise<SentMessage> {
    let answered: string | false;
    try {
      answered = await this.responseUrlReplies.answer(target.replyToMessageId, markdownToMrkdwn(text.markdown));
    } catch (error) {
      throw toChannelError("response_url", error, this.secrets);
    }
    if (answered) return { messageId: answered };
    const { api } = await this.loadSdk();
    // Slack has no quote-reply: replying to a message means answering in its thread. A slash
    // command or a press past its response_url is no message, so the answer goes to the channel itself.
    const threadTs = target.threadId ?? (isResponseUrlReplyId(target.replyToMessageId) ? undefined : target.replyToMessageId);
    let ts: string | undefined;
    try {
      const result = await api.chat.postMessage({
        channel: target.chatId,
        text: markdownToMrkdwn(text.markdown),
        thread_ts: threadTs,
        unfurl_links: this.settings.unfurlLinks,
        unfurl_media: false,
      });
      ts = result.ts;
    } catch (error) {
      throw toChannelError("chat.postMessage", error, this.secrets);
    }
    if (!ts) throw new Error("Slack chat.postMessage answered without a message ts");
    this.sentMessages.remember(target.chatId, ts, threadTs);
    return { messageId: ts };
  }

  async sendFile(target: OutboundTarget, file: OutboundFile): Promise<SentMessage> {
    const { api } = await this.loadSdk();
    let sent: SentMessage;
    try {
      sent = await uploadFile(api, target, file);
    } catch (error) {
      throw toChannelError("files.uploadV2", error, this.secrets);
    }
    this.sentMessages.remember(target.chatId, sent.messageId, target.threadId);
    return sent;
  }

  /** A Slack thread hangs off a message: post the title as its root in the chat (never inside another thread). */
  async createThread(target: OutboundTarget, title: string): Promise<OutboundTarget> {
    const root = await this.send({ chatId: target.chatId }, { markdown: title });
    return { chatId: target.chatId, threadId: root.messageId };
  }

  /** The new text replaces the old, and any buttons under it go (an empty `blocks`: Slack keeps the old ones otherwise). */
  async editMessage(target: OutboundTarget, messageId: string, text: OutboundText): Promise<void> {
    const { api } = await this.loadSdk();
    try {
      await api.chat.update({ channel: target.chatId, ts: messageId, text: markdownToMrkdwn(text.markdown), blocks: [] });
    } catch (error) {
      throw toChannelError("chat.update", error, this.secrets);
    }
  }

  /** Block Kit buttons under one of the bot's messages: its text again as a section, then the buttons; a press comes back as a `block_actions` interaction. */
  async setButtons(target: OutboundTarget, messageId: string, rows: readonly (readonly ChatButton[])[], text: OutboundText): Promise<void> {
    const { api } = await this.loadSdk();
    const mrkdwn = markdownToMrkdwn(text.markdown);
    try {
      await api.chat.update({ channel: target.chatId, ts: messageId, text: mrkdwn, blocks: buttonBlocks(rows, mrkdwn) });
    } catch (error) {
      throw toChannelError("chat.update", error, this.secrets);
    }
  }

  async deleteMessage(target: OutboundTarget, messageId: string): Promise<void> {
    const { api } = await this.loadSdk();
    try {
      await api.chat.delete({ channel: target.chatId, ts: messageId });
    } catch (error) {
      throw toChannelError("chat.delete", error, this.secrets);
    }
  }

  async react(target: OutboundTarget, messageId: string, emoji: string): Promise<void> {
    const name = slackEmojiName(emoji);
    if (!name) throw new ChannelPermanentError(`Slack reactions need an emoji name such as "eyes"; ${JSON.stringify(emoji)} has no known name`);
    const { api } = await this.loadSdk();
    try {
      await api.reactions.add({ channel: target.chatId, timestamp: messageId, name });
    } catch (error) {
      if (slackErrorCode(error) === "already_reacted") return;
      throw toChannelError("reactions.add", error, this.secrets);
    }
  }

  /** Takes back the bot's own reaction (a status reaction moving on); one it does not have is no error. */
  async unreact(target: OutboundTarget, messageId: string, emoji: string): Promise<void> {
    const name = slackEmojiName(emoji);
    if (!name) return;
    const { api } = await this.loadSdk();
    try {
      await api.reactions.remove({ channel: target.chatId, timestamp: messageId, name });
    } catch (error) {
      if (slackErrorCode(error) === "no_reaction") return;
      throw toChannelError("reactions.remove", error, this.secrets);
    }
  }

  /** Only emoji with a Slack name can be reactions. */
  statusEmoji(_status: StatusReactionKey, wanted: string): string | undefined {
    return slackEmojiName(wanted) ? wanted : undefined;
  }

  async resolveTarget(raw: string): Promise<OutboundTarget> {
    const target = parseSlackTarget(raw);
    if (target.kind === "conversation") return { chatId: target.id };
    const { api } = await this.loadSdk();
    let channelId: string | undefined;
    try {
      const result = await api.conversations.open({ users: target.id });
      channelId = result.channel?.id;
    } catch (error) {
      throw toChannelError("conversations.open", error, this.secrets);
    }
    if (!channelId) throw new Error(`Slack conversations.open answered without a channel for ${target.id}`);
    return { chatId: channelId };
  }

  /**
   * `user:U…` is a DM with that user; a conversation id is looked up with `conversations.info`: a
   * DM is its user's, a group DM a group, anything else a channel, as inbound messages key them.
   */
  async sessionPeer(raw: string): Promise<SessionPeer> {
    const target = parseSlackTarget(raw);
    const team = this.identity?.teamId ? { teamId: this.identity.teamId } : {};
    if (target.kind === "user") return { chatType: "direct", peerId: target.id, ...team };
    const { api } = await this.loadSdk();
    let info: { is_im?: boolean; is_mpim?: boolean; user?: string } | undefined;
    try {
      info = (await api.conversations.info({ channel: target.id })).channel as typeof info;
    } catch (error) {
      throw toChannelError("conversations.info", error, this.secrets);
    }
    if (info?.is_im) {
      if (!info.user) throw new ChannelPermanentError(`Slack DM ${target.id} names no user; use user:<U… id>`);
      return { chatType: "direct", peerId: info.user, ...team };
    }
    return { chatType: info?.is_mpim ? "group" : "channel", peerId: target.id, ...team };
  }

  /** `conversations.replies`; a refusal (a missing `channels:history` / `groups:history` scope) is logged and reads as none. */
  async threadHistory(chatId: string, threadId: string, limit: number, beforeMessageId: string): Promise<ThreadHistoryMessage[]> {
    const { api, directory } = await this.loadSdk();
    return readThreadHistory({ api, directory, logger: this.context.logger, secrets: this.secrets }, chatId, threadId, limit, beforeMessageId);
  }

  describeSender(senderId: string): string {
    return `Your Slack user id: ${senderId}`;
  }

  private async startSocketMode(): Promise<void> {
    const sdk = await this.loadSdk();
    if (!this.running) return;
    const receiver = new sdk.bolt.SocketModeReceiver({
      appToken: this.settings.appToken!,
      logger: sdk.boltLogger,
      clientPingTimeout: PONG_TIMEOUT_MS,
      autoReconnectEnabled: false,
      // Bolt hands `installerOptions.clientOptions` to the Socket Mode client: that is how
      // `apps.connections.open` reaches `slackApiUrl` too.
      installerOptions: { clientOptions: socketClientOptions(this.settings.slackApiUrl, sdk.boltLogger) },
    });
    this.supervisor = new SocketSupervisor(receiver.client, {
      logger: this.context.logger,
      prepare: () => this.prepare(receiver),
      reportStatus: (patch) => this.context.reportStatus(patch),
      describeError: (error) => this.describeConnectError(error),
      isPermanent: (error) => (error instanceof SlackStartError ? error.permanent : isAuthError(error)),
    });
    await this.supervisor.start();
  }

  /**
   * (Re)register the Events route on every start: a gateway drops an account's routes when it
   * stops it. One receiver serves them all; while the account is stopped it answers 503.
   */
  private async startHttpMode(): Promise<void> {
    const receiver = (this.httpReceiver ??= this.createHttpReceiver());
    this.context.registerHttpRoute({ method: "POST", path: this.settings.webhookPath, handler: (request) => receiver.handle(request) });
    try {
      await this.prepare(receiver);
    } catch (error) {
      const permanent = error instanceof SlackStartError && error.permanent;
      const message = error instanceof Error ? error.message : String(error);
      this.context.reportStatus({ lastError: message });
      if (permanent) throw new ChannelPermanentError(message);
      // Not fatal: the next event Slack sends tries again (and Slack retries what we refuse).
      this.context.logger.warn(`${message}; Slack events get 503 until it succeeds`);
    }
  }

  private createHttpReceiver(): SlackHttpReceiver {
    const receiver = new SlackHttpReceiver({
      signingSecret: this.settings.signingSecret!,
      logger: this.context.logger,
      prepare: async () => {
        if (!this.running) return false;
        await this.prepare(receiver);
        return true;
      },
    });
    return receiver;
  }

  /** Learn who the bot is and build the bolt App around `receiver`; concurrent callers share one run. */
  private prepare(receiver: Receiver): Promise<void> {
    this.preparing ??= (async () => {
      const sdk = await this.loadSdk();
      this.identity ??= await this.fetchIdentity(sdk.api);
      if (this.app) return;
      this.app = this.createApp(sdk, receiver, this.identity);
      // HTTP mode has no connection of its own: a verified token is as connected as it gets.
      if (this.settings.mode === "http") this.context.reportStatus({ connected: true, lastConnectedAt: Date.now(), lastError: null });
    })().finally(() => {
      this.preparing = undefined;
    });
    return this.preparing;
  }

  private async fetchIdentity(api: SlackWebClient): Promise<BotIdentity> {
    let result: Awaited<ReturnType<SlackWebClient["auth"]["test"]>>;
    try {
      result = await api.auth.test();
    } catch (error) {
      if (isAuthError(error)) throw new SlackStartError(`Slack rejected the bot token (${slackErrorCode(error)}); check botToken`, true);
      throw new SlackStartError(describeSlackError("auth.test", error, this.secrets), false);
    }
    if (!result.user_id) throw new SlackStartError("Slack auth.test named no bot user; is botToken a bot token (xoxb-)?", true);
    this.context.reportStatus({ botId: result.user_id, botUsername: result.user });
    return { userId: result.user_id, botId: result.bot_id, teamId: result.team_id };
  }

  private createApp(sdk: SlackSdk, receiver: Receiver, identity: BotIdentity): App {
    const app = new sdk.bolt.App({
      receiver,
      token: this.settings.botToken,
      botId: identity.botId,
      botUserId: identity.userId,
      // auth.test already ran (fetchIdentity); bolt must not run it again from its constructor.
      tokenVerificationEnabled: false,
      // isDeliverable drops our own posts, with one rule for every event type.
      ignoreSelf: false,
      convoStore: false,
      logger: sdk.boltLogger,
      clientOptions: deliveryClientOptions(this.settings.slackApiUrl, sdk.boltLogger),
    });
    const onEvent = async ({ event, body }: { event: unknown; body: { team_id?: string } }) => this.handleEvent(event as SlackMessageEvent, body.team_id);
    app.event("message", onEvent);
    app.event("app_mention", onEvent);
    app.event("reaction_added", async ({ event, body }) => this.handleReaction(event as SlackReactionEvent, (body as { team_id?: string }).team_id));
    app.event("reaction_removed", async ({ event, body }) => this.handleReaction(event as SlackReactionEvent, (body as { team_id?: string }).team_id));
    const slash = this.settings.slashCommand;
    if (slash.enabled) {
      app.command(`/${slash.name}`, async ({ command, ack, respond }) => {
        await ack();
        await this.handleSlashCommand(command, respond);
      });
    }
    app.action({ type: "block_actions" }, async ({ ack, body, action, respond }) => {
      await ack();
      await this.handleButtonPress(body as unknown as BlockActionsBody, action.type === "button" ? action.value : undefined, respond as Respond);
    });
    return app;
  }

  /** Bolt has acked the event already; from here on a failure is logged, never thrown back. */
  private async handleEvent(event: SlackMessageEvent, teamId: string | undefined): Promise<void> {
    const bot = this.identity;
    if (!bot || !isDeliverable(event, bot)) return;
    const key = `${event.channel}:${event.ts}`;
    if (this.recentMessages.has(key)) return;
    this.recentMessages.set(key, true);
    try {
      const { directory } = await this.loadSdk();
      const chatType = chatKindOf(event.channel_type) ?? (await directory.chatKind(event.channel));
      const sender = profileFromEvent(event) ?? (await directory.profile(event.user));
      const botInThread = event.thread_ts !== undefined && this.sentMessages.postedIn(event.channel, event.thread_ts);
      const envelope = toInboundMessage(event, { bot, chatType, sender, teamId, botInThread });
      const media = event.files?.length ? slackMedia(event.files, this.settings.botToken ?? "", this.settings.slackApiUrl) : [];
      if (media.length > 0) envelope.media = media;
      await this.context.onInbound(envelope);
    } catch (error) {
      this.context.logger.error({ chatId: event.channel, messageId: event.ts }, `Slack message was not handed over: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * `reaction_added` and `reaction_removed` (`reactionNotifications`, reactions as feedback): a
   * reaction to a message, or its removal, in the chat a message there
   * would name (see `toInboundReaction` for the thread), for the gateway to decide on. Bolt has
   * acked the event already, as every event; a failure is logged, never thrown back.
   */
  private async handleReaction(event: SlackReactionEvent, teamId: string | undefined): Promise<void> {
    const bot = this.identity;
    if (!bot || !isReportableReaction(event, bot)) return;
    const { channel, ts } = event.item;
    try {
      const { directory } = await this.loadSdk();
      const [chatType, sender] = await Promise.all([directory.chatKind(channel), directory.profile(event.user)]);
      const sentByBot = this.sentMessages.find(channel, ts);
      await this.context.onReaction(toInboundReaction(event, { bot, chatType, sender, teamId, sentByBot }));
      this.context.logger.debug({ chatId: channel, messageId: ts, senderId: event.user, emoji: event.reaction }, "Slack reaction handed over");
    } catch (error) {
      this.context.logger.error({ chatId: channel, messageId: ts }, `Slack reaction was not handed over: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * `channels.slack.slashCommand`: `/openclaw <text>` is a message to the bot in the channel it was
   * run in (a chat command when the text is one); the answer goes to the command's `response_url`.
   * Bolt has acked it already.
   */
  private async handleSlashCommand(command: SlashCommandPayload, respond: Respond): Promise<void> {
    try {
      if (!command.text.trim()) {
        await respond(slashUsage(this.settings.slashCommand));
        return;
      }
      const { directory } = await this.loadSdk();
      const envelope = await slashCommandInbound(command, directory);
      this.responseUrlReplies.remember(envelope.messageId, respond, slashResponseType(this.settings.slashCommand));
      await this.context.onInbound(envelope);
    } catch (error) {
      this.context.logger.error({ chatId: command.channel_id }, `Slack slash command was not handed over: ${describeSlackError(command.command, error, this.secrets)}`);
    }
  }

  /**
   * A press of a button under one of the bot's messages (Bolt has acked it already), through the
   * inbound pipeline as its presser's message. A command button's answer (the outcome, or why they
   * may not) goes to the press's `response_url`, seen by them only; the agent's reply to any other
   * press goes to the chat. A failure is logged, never thrown back.
   */
  private async handleButtonPress(body: BlockActionsBody, value: string | undefined, respond: Respond): Promise<void> {
    try {
      const { directory } = await this.loadSdk();
      const press = await buttonPressInbound(body, value, directory);
      if (!press) return;
      if (press.command) this.responseUrlReplies.remember(press.envelope.messageId, respond, "ephemeral");
      await this.context.onInbound(press.envelope);
    } catch (error) {
      this.context.logger.error({ chatId: body.channel?.id }, `Slack button press was not handed over: ${describeSlackError("block_actions", error, this.secrets)}`);
    }
  }

  private describeConnectError(error: unknown): string {
    if (error instanceof SlackStartError) return error.message;
    if (isAuthError(error)) return `Slack rejected the app token (${slackErrorCode(error)}); check appToken`;
    return describeSlackError("Socket Mode", error, this.secrets);
  }

  private loadSdk(): Promise<SlackSdk> {
    this.sdk ??= loadBolt().then((bolt) => {
      const boltLogger = createBoltLogger(this.context.logger.child({ component: "slack-sdk" }), bolt.LogLevel, this.secrets);
      const api = new bolt.webApi.WebClient(this.settings.botToken, deliveryClientOptions(this.settings.slackApiUrl, boltLogger));
      return { bolt, boltLogger, api, directory: new SlackDirectory(api, this.context.logger, this.secrets) };
    });
    return this.sdk;
  }
}
