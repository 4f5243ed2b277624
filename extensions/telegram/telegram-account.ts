import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type {
  ChannelAccount,
  ChatButton,
  ChannelAccountContext,
  OutboundFile,
  OutboundTarget,
  OutboundText,
  SentMessage,
  SessionPeer,
  StatusReactionKey,
} from "../../src/channels/types.js";
import { ChannelPermanentError } from "../../src/channels/types.js";
import { createTelegramApi, grammySignal } from "./api-client.js";
import { describeTelegramError, isConflict, isTokenRejected } from "./api-errors.js";
import { ChatLookups } from "./chat-lookups.js";
import { ConnectionStatus } from "./connection-status.js";
import { ALLOWED_UPDATES, chatKind, translateReaction, translateUpdate, type BotIdentity } from "./inbound.js";
import { SentMessageMemory } from "../../src/channels/outbound/sent-message-memory.js";
import { clearReactions, createTopic, deleteMessage, editText, react, sendFile, sendText, sendTyping, setInlineKeyboard, type OutboundDeps } from "./outbound.js";
import { telegramStatusEmoji } from "./reaction-emoji.js";
import { claimPollingToken, releasePollingToken, UpdatePoller } from "./polling.js";
import { POLLING_RETRY_MAX_MS, readTelegramSettings, resolveBotToken, type TelegramSettings } from "./settings.js";
import { telegramCommandMenu } from "./command-menu.js";
import { supervise, type ErrorVerdict } from "./supervise.js";
import { parseTelegramTarget } from "./targets.js";
import { createWebhookRoute } from "./webhook-route.js";
import { telegramMedia } from "./media.js";

const TOKEN_REJECTED = "Telegram rejected the bot token (401 Unauthorized); not retrying until the token is fixed (botToken / tokenFile / TELEGRAM_BOT_TOKEN)";

interface Client {
  api: Api;
  token: string;
  settings: TelegramSettings;
}

/**
 * One bot. Updates arrive by long polling (default) or by webhook when `webhookUrl` is set;
 * either way each becomes an inbound message for `context.onInbound`. Sending works without `start`
 * (the CLI posts through an account that never polls).
 */
export class TelegramAccount implements ChannelAccount {
  private readonly status: ConnectionStatus;
  private client: Client | undefined;
  private identity: BotIdentity | undefined;
  private poller: UpdatePoller | undefined;
  private running: { abort: AbortController; loop: Promise<void> } | undefined;
  /** The previous run letting go (loop ended, token released); a restart waits for it. */
  private stopping: Promise<void> | undefined;
  private webhookRouteRegistered = false;
  /** `getChat` answers for `sessionPeer`, kept for this run of the account. */
  private readonly chats = new ChatLookups();
  /** What this account posted: reactions to these are reactions to the bot (`reactionNotifications: own`). */
  private readonly sentMessages = new SentMessageMemory();

  constructor(
    private readonly context: ChannelAccountContext,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.status = new ConnectionStatus((patch) => context.reportStatus(patch));
  }

  async start(): Promise<void> {
    await this.stopping;
    if (this.running) return;
    const client = this.requireClient();
    if (!client.settings.webhook) claimPollingToken(client.token, this.context.accountId, this);
    this.status.started(client.settings.webhook ? "webhook" : "polling");
    if (client.settings.webhook) this.registerWebhookRoute(client.settings.webhook);
    const abort = new AbortController();
    const firstConnect = this.connectAtStart(client, abort.signal);
    // Set before awaiting, so a `stop` during start aborts the connect instead of missing it.
    this.running = {
      abort,
      loop: firstConnect.then(
        (connected) => this.superviseConnection(client, abort.signal, connected),
        () => undefined,
      ),
    };
    try {
      await firstConnect;
    } catch (error) {
      this.running = undefined;
      releasePollingToken(client.token, this);
      this.status.stopped();
      throw error;
    }
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return this.stopping;
    this.running = undefined;
    this.chats.clear();
    running.abort.abort();
    this.stopping = running.loop.then(() => {
      if (this.client) releasePollingToken(this.client.token, this);
      this.status.stopped();
    });
    return this.stopping;
  }

  async send(target: OutboundTarget, text: OutboundText): Promise<SentMessage> {
    return this.remember(target, await sendText(this.outboundDeps(), target, text));
  }

  async sendFile(target: OutboundTarget, file: OutboundFile): Promise<SentMessage> {
    return this.remember(target, await sendFile(this.outboundDeps(), target, file));
  }

  private remember(target: OutboundTarget, sent: SentMessage): SentMessage {
    this.sentMessages.remember(target.chatId, sent.messageId, target.threadId);
    return sent;
  }

  sendTyping(target: OutboundTarget): Promise<void> {
    return sendTyping(this.outboundDeps(), target);
  }

  editMessage(target: OutboundTarget, messageId: string, text: OutboundText): Promise<void> {
    return editText(this.outboundDeps(), target, messageId, text);
  }

  deleteMessage(target: OutboundTarget, messageId: string): Promise<void> {
    return deleteMessage(this.outboundDeps(), target, messageId);
  }

  setButtons(target: OutboundTarget, messageId: string, rows: readonly (readonly ChatButton[])[]): Promise<void> {
    return setInlineKeyboard(this.outboundDeps(), target, messageId, rows);
  }

  react(target: OutboundTarget, messageId: string, emoji: string): Promise<void> {
    return react(this.outboundDeps(), target, messageId, emoji);
  }

  clearReactions(target: OutboundTarget, messageId: string): Promise<void> {
    return clearReactions(this.outboundDeps(), target, messageId);
  }

  /** A bot has one reaction on a message: each `setMessageReaction` replaces it. */
  readonly reactionReplaces = true as const;

  statusEmoji(status: StatusReactionKey, wanted: string): string | undefined {
    return telegramStatusEmoji(status, wanted);
  }

  createThread(target: OutboundTarget, title: string): Promise<OutboundTarget> {
    return createTopic(this.outboundDeps(), target, title);
  }

  async resolveTarget(raw: string): Promise<OutboundTarget> {
    return parseTelegramTarget(raw);
  }

  /**
   * A positive chat id is a user (a DM has its user's id); any other chat's kind and id come from
   * `getChat`, whose answer is reused for a while (ChatLookups) and forgotten when the account stops.
   */
  async sessionPeer(raw: string): Promise<SessionPeer> {
    const target = parseTelegramTarget(raw);
    const thread = target.threadId ? { threadId: target.threadId } : {};
    if (/^\d+$/.test(target.chatId)) return { chatType: "direct", peerId: target.chatId, ...thread };
    const client = this.requireClient();
    try {
      const chat = await this.chats.lookUp(target.chatId, async (chatId) => {
        const found = await client.api.getChat(chatId);
        return { chatType: chatKind(found), peerId: String(found.id) };
      });
      return { ...chat, ...thread };
    } catch (error) {
      throw new Error(`cannot look up Telegram chat ${target.chatId}: ${describeTelegramError(error, client.token, "getChat")}`);
    }
  }

  describeSender(senderId: string): string {
    return `Your Telegram user id: ${senderId}`;
  }

  /** The API client, built on first use; throws the config problem when there is no usable token. */
  private requireClient(): Client {
    if (this.client) return this.client;
    const token = resolveBotToken(this.context.config, this.env, this.context.accountId);
    if ("problem" in token) throw new ChannelPermanentError(token.problem);
    const settings = readTelegramSettings(this.context.config);
    const api = createTelegramApi(token.token, settings);
    this.client = { api, token: token.token, settings };
    return this.client;
  }

  private outboundDeps(): OutboundDeps {
    const client = this.requireClient();
    return { api: client.api, token: client.token, linkPreview: client.settings.linkPreview, logger: this.context.logger };
  }

  /** `getMe`, then point Telegram at the webhook, or make sure none is set (it would make polling 409). */
  private async connect(client: Client, signal: AbortSignal): Promise<void> {
    const me = await client.api.getMe(grammySignal(signal));
    this.identity = { id: me.id, username: me.username };
    this.status.identified(me.id, me.username);
    if (client.settings.webhook) {
      const { url, secret } = client.settings.webhook;
      await client.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] }, grammySignal(signal));
      this.status.up();
    } else {
      await client.api.deleteWebhook({}, grammySignal(signal));
    }
    await this.publishCommandMenu(client, signal);
  }

  /** The gateway's chat commands and the account's custom entries in Telegram's `/` menu; a refusal is logged, never fatal. */
  private async publishCommandMenu(client: Client, signal: AbortSignal): Promise<void> {
    const { menu, skipped } = telegramCommandMenu(await this.context.nativeCommands(), client.settings.customCommands);
    for (const reason of skipped) this.context.logger.warn({ reason }, "telegram customCommands entry skipped");
    if (menu.length === 0) return;
    try {
      await client.api.setMyCommands(menu, {}, grammySignal(signal));
    } catch (err) {
      if (signal.aborted) throw err;
      this.context.logger.warn({ err: (err as Error).message }, "telegram command menu not set (setMyCommands failed); commands still work when typed");
    }
  }

  /**
   * The first `connect`: a rejected token fails `start`; anything else (Telegram unreachable at
   * boot, network not up yet) is reported and left to the supervised loop. Resolves to whether
   * it connected.
   */
  private async connectAtStart(client: Client, signal: AbortSignal): Promise<boolean> {
    try {
      await this.connect(client, signal);
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      if (isTokenRejected(error)) {
        this.status.failed(TOKEN_REJECTED);
        throw new ChannelPermanentError(TOKEN_REJECTED);
      }
      this.reportRetry(error, client, 0);
      return false;
    }
  }

  /** Polling: connect unless done already, then poll until stopped. Webhook: connect, then done. */
  private superviseConnection(client: Client, signal: AbortSignal, connected: boolean): Promise<void> {
    const poller = (this.poller ??= new UpdatePoller({
      api: client.api,
      timeoutSeconds: client.settings.pollingTimeoutSeconds,
      logger: this.context.logger,
      handleUpdate: (update) => this.deliver(update),
    }));
    return supervise({
      signal,
      baseDelayMs: client.settings.pollingRetryBaseMs,
      maxDelayMs: POLLING_RETRY_MAX_MS,
      step: async () => {
        if (!connected) {
          await this.connect(client, signal);
          connected = true;
        }
        if (client.settings.webhook) return "done";
        await poller.pollOnce(signal, () => this.status.up());
        return "again";
      },
      onError: (error, retryInMs) => this.reportRetry(error, client, retryInMs),
    });
  }

  private reportRetry(error: unknown, client: Client, retryInMs: number): ErrorVerdict {
    if (isTokenRejected(error)) {
      this.status.failed(TOKEN_REJECTED);
      this.context.logger.error(TOKEN_REJECTED);
      return "give-up";
    }
    const hint = isConflict(error) ? " (another process polls with this bot token, or a webhook is set)" : "";
    const message = describeTelegramError(error, client.token) + hint;
    this.status.lost(message);
    this.context.logger.warn({ retryInMs }, `telegram: ${message}; retrying`);
    return "retry";
  }

  /** Hands one update to the gateway; resolves once it is recorded. */
  private async deliver(update: Update): Promise<void> {
    // Both transports only hand out updates after `connect` learned who the bot is.
    if (!this.identity) throw new Error("telegram: update arrived before getMe answered");
    const reaction = update.message_reaction;
    if (reaction) {
      const sentByBot = this.sentMessages.find(String(reaction.chat.id), String(reaction.message_id));
      for (const change of translateReaction(reaction, sentByBot)) await this.context.onReaction(change);
      return;
    }
    const envelope = translateUpdate(update, this.identity);
    if (!envelope) return;
    const message = update.message ?? update.channel_post;
    if (message) {
      const client = this.requireClient();
      const media = telegramMedia(message, { api: client.api, token: client.token, apiRoot: client.settings.apiRoot });
      if (media.length > 0) envelope.media = media;
    }
    await this.context.onInbound(envelope);
    if (update.callback_query) {
      const client = this.requireClient();
      // Stops the spinner on the pressed button; cosmetic, so a failure is only logged.
      await client.api.answerCallbackQuery(update.callback_query.id).catch((error: unknown) => {
        this.context.logger.warn(`telegram: ${describeTelegramError(error, client.token)}`);
      });
    }
  }

  private registerWebhookRoute(webhook: NonNullable<TelegramSettings["webhook"]>): void {
    if (this.webhookRouteRegistered) return;
    this.webhookRouteRegistered = true;
    this.context.registerHttpRoute(
      createWebhookRoute({
        path: webhook.path,
        secret: webhook.secret,
        isReady: () => this.running !== undefined && this.identity !== undefined,
        deliver: async (update) => {
          try {
            await this.deliver(update);
          } catch (error) {
            this.context.logger.error({ err: error, updateId: update.update_id }, "telegram: webhook update could not be handed to the gateway");
            throw error;
          }
        },
      }),
    );
  }
}
