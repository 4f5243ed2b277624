import {
  ChannelType,
  MessageFlags,
  Routes,
  ThreadAutoArchiveDuration,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Message,
  type MessageCreateOptions,
  type SendableChannels,
} from "discord.js";
import {
  ChannelPermanentError,
  type ChannelAccount,
  type ChannelAccountContext,
  type ChatButton,
  type OutboundFile,
  type OutboundTarget,
  type OutboundText,
  type SentMessage,
  type SessionPeer,
} from "../../src/channels/types.js";
import type { DiscordSettingsResult } from "./config.js";
import { DiscordConnection } from "./connection.js";
import type { DeferredInteractions } from "./deferred-interactions.js";
import { createRedactor, toChannelError, type Redactor } from "./errors.js";
import { ChannelOrder } from "./channel-order.js";
import { toInboundMessage, toInboundReaction, type ReactionContext, type ReactionPayload } from "./inbound.js";
import { interactionToInbound, toApplicationCommands } from "./application-commands.js";
import { buttonToInbound, toActionRows } from "./buttons.js";
import { applyMentionAliases, type MentionAliases } from "./mention-aliases.js";
import { parseDiscordTarget } from "./targets.js";

/** Discord's limit on a message's text. */
const DISCORD_MESSAGE_LIMIT = 2000;

/** Discord's limit on a thread name. */
const MAX_THREAD_NAME = 100;

/**
 * Nobody gets pinged by what the model writes (no @everyone, roles, users, nor the replied-to
 * author) except the users `mentionAliases` named in it.
 */
function allowedMentions(users: readonly string[]): { parse: []; users?: string[]; repliedUser: false } {
  return users.length > 0 ? { parse: [], users: [...users], repliedUser: false } : { parse: [], repliedUser: false };
}

/**
 * One Discord bot account: a supervised gateway connection plus REST sends through the same
 * client. An account whose config is unusable (a named account without a token of its own) is
 * still created, and refuses to start with the reasons.
 */
export class DiscordAccount implements ChannelAccount {
  readonly #context: ChannelAccountContext;
  readonly #suppressEmbeds: boolean;
  readonly #mentionAliases: MentionAliases;
  readonly #agentButtonsTtlMs: number;
  readonly #redact: Redactor;
  readonly #connection: DiscordConnection | null;
  readonly #problems: string[];
  /** Slash commands deferred and waiting for their answer, shared by every run of the account. */
  readonly #deferred: DeferredInteractions;
  /** A reaction is handed over before what follows it in its channel. */
  readonly #order = new ChannelOrder();

  constructor(context: ChannelAccountContext, config: DiscordSettingsResult, deferred: DeferredInteractions) {
    this.#context = context;
    this.#deferred = deferred;
    if (!config.ok) {
      this.#suppressEmbeds = true;
      this.#mentionAliases = new Map();
      this.#agentButtonsTtlMs = 0;
      this.#redact = createRedactor("");
      this.#connection = null;
      this.#problems = config.problems;
      return;
    }
    const { settings } = config;
    this.#suppressEmbeds = settings.suppressEmbeds;
    this.#mentionAliases = settings.mentionAliases;
    this.#agentButtonsTtlMs = settings.agentButtonsTtlMs;
    this.#redact = createRedactor(settings.token);
    this.#problems = [];
    this.#connection = new DiscordConnection({
      settings,
      logger: context.logger,
      redact: this.#redact,
      reportStatus: (patch) => context.reportStatus(patch),
      onMessage: (message, botId) => this.#deliverInbound(message, botId),
      onReaction: (data, client, botId, removed) => this.#deliverReaction(data, client, botId, removed),
      onCommand: (interaction) => void this.#deliverCommand(interaction),
      onButton: (interaction) => void this.#deliverButton(interaction),
      onReady: (client) => void this.#publishCommands(client),
    });
  }

  async start(): Promise<void> {
    this.#connectionOrThrow().start();
  }

  async stop(): Promise<void> {
    await this.#connection?.stop();
  }

  async send(target: OutboundTarget, text: OutboundText): Promise<SentMessage> {
    const interactionId = target.replyToMessageId;
    if (interactionId !== undefined && this.#deferred.has(this.#context.accountId, interactionId)) {
      // The deferred answer ("… is thinking") becomes the reply, also when an earlier run of the account deferred it.
      return this.#rest(async () => ({
        messageId: await this.#deferred.answer(this.#client(), this.#context.accountId, interactionId, this.#content(text.markdown)),
      }));
    }
    return this.#rest(async () => {
      const channel = await this.#channel(target);
      // Discord renders Markdown itself: the text goes out as the model wrote it (known @handles as mentions).
      const options: MessageCreateOptions = { ...this.#content(text.markdown), flags: this.#flags(text) };
      if (target.replyToMessageId) options.reply = { messageReference: target.replyToMessageId, failIfNotExists: false };
      const message = await channel.send(options);
      return { messageId: message.id };
    });
  }

  /** The file as an attachment (Discord shows images inline), the caption as the message text. */
  async sendFile(target: OutboundTarget, file: OutboundFile): Promise<SentMessage> {
    return this.#rest(async () => {
      const channel = await this.#channel(target);
      const message = await channel.send({
        ...this.#content((file.caption ?? "").slice(0, 2000)),
        files: [{ attachment: file.path, name: file.fileName }],
        flags: this.#flags({ markdown: "" }),
      });
      return { messageId: message.id };
    });
  }

  /** The message text with `mentionAliases` applied, and the only users it may ping. */
  #content(markdown: string): { content: string; allowedMentions: ReturnType<typeof allowedMentions> } {
    const aliased = applyMentionAliases(markdown, this.#mentionAliases);
    // A chunk cut to Discord's limit may not fit once `<@id>` replaced its handles: it goes as written.
    if (aliased.text.length > DISCORD_MESSAGE_LIMIT && markdown.length <= DISCORD_MESSAGE_LIMIT) return { content: markdown, allowedMentions: allowedMentions([]) };
    return { content: aliased.text, allowedMentions: allowedMentions(aliased.users) };
  }

  async sendTyping(target: OutboundTarget): Promise<void> {
    await this.#rest(async () => (await this.#channel(target)).sendTyping());
  }

  /** The new text replaces the old, and any buttons under it go. */
  async editMessage(target: OutboundTarget, messageId: string, text: OutboundText): Promise<void> {
    await this.#rest(async () => {
      const channel = await this.#channel(target);
      const flags = this.#suppressEmbeds ? MessageFlags.SuppressEmbeds : undefined;
      await channel.messages.edit(messageId, { ...this.#content(text.markdown), flags, components: [] });
    });
  }

  /** Buttons under one of the bot's messages; a press comes back as an interaction (`#deliverButton`). */
  async setButtons(target: OutboundTarget, messageId: string, rows: readonly (readonly ChatButton[])[]): Promise<void> {
    await this.#rest(async () => {
      const channel = await this.#channel(target);
      await channel.messages.edit(messageId, { components: toActionRows(rows) });
    });
  }

  async deleteMessage(target: OutboundTarget, messageId: string): Promise<void> {
    await this.#rest(async () => (await this.#channel(target)).messages.delete(messageId));
  }

  async react(target: OutboundTarget, messageId: string, emoji: string): Promise<void> {
    await this.#rest(async () => (await this.#channel(target)).messages.react(messageId, emoji));
  }

  /** Takes back the bot's own reaction (a status reaction moving on); one it does not have is no error. */
  async unreact(target: OutboundTarget, messageId: string, emoji: string): Promise<void> {
    const channelId = target.threadId ?? target.chatId;
    await this.#rest(async () => {
      await this.#client().rest.delete(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(emoji)));
    });
  }

  /**
   * A public thread in the target's text channel; inside a thread, in that thread's parent
   * (threads do not nest). A thread is a channel of its own: its id is both chat and thread.
   */
  async createThread(target: OutboundTarget, title: string): Promise<OutboundTarget> {
    return this.#rest(async () => {
      const channelId = target.threadId ?? target.chatId;
      const fetched = await this.#client().channels.fetch(channelId);
      const channel = fetched?.isThread() ? fetched.parent : fetched;
      if (channel?.type !== ChannelType.GuildText && channel?.type !== ChannelType.GuildAnnouncement) {
        throw new ChannelPermanentError(`discord: threads exist only in server text channels, and channel ${channelId} is not one`);
      }
      const thread = await channel.threads.create({ name: title.slice(0, MAX_THREAD_NAME), autoArchiveDuration: ThreadAutoArchiveDuration.OneDay });
      return { chatId: thread.id, threadId: thread.id };
    });
  }

  async resolveTarget(raw: string): Promise<OutboundTarget> {
    const target = parseDiscordTarget(raw);
    if (target.kind === "channel") return { chatId: target.id };
    return this.#rest(async () => ({ chatId: (await this.#client().users.createDM(target.id)).id }));
  }

  /**
   * `user:<id>` is a DM with that user; a channel id is looked up: a DM channel is its recipient's
   * DM, a thread hangs off its parent channel, as inbound messages key them.
   */
  async sessionPeer(raw: string): Promise<SessionPeer> {
    const target = parseDiscordTarget(raw);
    if (target.kind === "user") return { chatType: "direct", peerId: target.id };
    return this.#rest(async () => {
      const channel = await this.#client().channels.fetch(target.id);
      if (!channel) throw new ChannelPermanentError(`discord: no channel ${target.id}`);
      if (channel.type === ChannelType.DM) {
        if (!channel.recipientId) throw new ChannelPermanentError(`discord: DM channel ${target.id} names no recipient; use user:<id>`);
        return { chatType: "direct", peerId: channel.recipientId };
      }
      if (channel.isDMBased()) throw new ChannelPermanentError(`discord: channel ${target.id} is a group DM, which this gateway does not take messages from`);
      const guild = "guildId" in channel && channel.guildId ? { guildId: channel.guildId } : {};
      if (channel.isThread() && channel.parentId) return { chatType: "channel", peerId: channel.parentId, threadId: channel.id, ...guild };
      return { chatType: "channel", peerId: channel.id, ...guild };
    });
  }

  describeSender(senderId: string): string {
    return `Your Discord user id: ${senderId}`;
  }

  #flags(text: OutboundText): number | undefined {
    let flags = 0;
    if (this.#suppressEmbeds) flags |= MessageFlags.SuppressEmbeds;
    if (text.silent) flags |= MessageFlags.SuppressNotifications;
    return flags === 0 ? undefined : flags;
  }

  /**
   * The channel to post in, from discord.js's cache or fetched once. For Discord a thread is a
   * channel of its own, so a thread id wins over the chat id.
   */
  async #channel(target: OutboundTarget): Promise<SendableChannels> {
    const channelId = target.threadId ?? target.chatId;
    const channel = await this.#client().channels.fetch(channelId);
    if (!channel?.isSendable()) throw new ChannelPermanentError(`discord: channel ${channelId} does not take messages`);
    return channel;
  }

  #client(): Client {
    return this.#connectionOrThrow().client;
  }

  #connectionOrThrow(): DiscordConnection {
    if (!this.#connection) throw new ChannelPermanentError(`discord account "${this.#context.accountId}": ${this.#problems.join("; ")}`);
    return this.#connection;
  }

  async #rest<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw toChannelError(error, this.#redact);
    }
  }

  /**
   * `commands.native`: the chat commands as Discord application commands, set (replacing what was
   * there) each time a new client is READY. A refusal is logged, never fatal: typed commands still work.
   */
  async #publishCommands(client: Client): Promise<void> {
    const commands = await this.#context.nativeCommands();
    if (commands.length === 0 || !client.application) return;
    try {
      await client.application.commands.set(toApplicationCommands(commands));
      this.#context.logger.info({ count: commands.length }, "discord application commands registered");
    } catch (error) {
      this.#context.logger.warn(`discord: application commands not registered (typed commands still work): ${this.#redact(String(error))}`);
    }
  }

  /**
   * A slash command: Discord wants an answer within 3 seconds, so it is deferred at once and the
   * command's reply edits the deferred answer. The command itself runs through the inbound pipeline.
   */
  async #deliverCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    try {
      await interaction.deferReply();
    } catch (error) {
      this.#context.logger.warn({ interactionId: interaction.id }, `discord: slash command not acknowledged: ${this.#redact(String(error))}`);
      return;
    }
    this.#deferred.add(this.#context.accountId, interaction);
    const envelope = interactionToInbound(interaction);
    this.#context.onInbound(envelope).catch((error: unknown) => {
      this.#context.logger.error({ interactionId: interaction.id, chatId: envelope.chatId }, `discord: slash command not accepted: ${this.#redact(String(error))}`);
    });
  }

  /**
   * A button press, through the inbound pipeline as its presser's message. A command button's
   * press is deferred at once as an answer only the presser sees, which the command's reply (its
   * outcome, or why they may not) then edits. Any other press (the agent's buttons: `callback_data:
   * …`) is single use, as OpenClaw's components: it takes the buttons off the message, and the
   * agent's reply goes to the chat; past `agentComponents.ttlMs` from the message it is only told,
   * to the presser, that the buttons expired.
   */
  async #deliverButton(interaction: ButtonInteraction): Promise<void> {
    const { envelope, command } = buttonToInbound(interaction);
    try {
      if (command) await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      else if (Date.now() - interaction.message.createdTimestamp > this.#agentButtonsTtlMs) {
        await interaction.reply({ content: "These buttons have expired.", flags: MessageFlags.Ephemeral });
        return;
      } else await interaction.update({ components: [] });
    } catch (error) {
      this.#context.logger.warn({ interactionId: interaction.id }, `discord: button press not acknowledged: ${this.#redact(String(error))}`);
      return;
    }
    if (command) this.#deferred.add(this.#context.accountId, interaction);
    this.#context.onInbound(envelope).catch((error: unknown) => {
      this.#context.logger.error({ interactionId: interaction.id, chatId: envelope.chatId }, `discord: button press not accepted: ${this.#redact(String(error))}`);
    });
  }

  /** Inbound failures are logged here and never thrown back into discord.js's event loop. */
  #deliverInbound(message: Message, botId: string): void {
    let envelope;
    try {
      envelope = toInboundMessage(message, botId);
    } catch (error) {
      this.#context.logger.error({ messageId: message.id }, `discord: could not read an inbound message: ${this.#redact(String(error))}`);
      return;
    }
    if (!envelope) return;
    this.#order.pass(message.channelId, () => {
      this.#context.onInbound(envelope).catch((error: unknown) => {
        this.#context.logger.error({ messageId: envelope.messageId, chatId: envelope.chatId }, `discord: inbound message not accepted: ${this.#redact(String(error))}`);
      });
    });
  }

  /** A reaction someone added or took back (`reactionNotifications`, reactions as feedback); handed over in its channel's order, failures logged and never thrown back into discord.js. */
  #deliverReaction(data: ReactionPayload, client: Client, botId: string, removed: boolean): void {
    if (data.user_id === botId) return;
    this.#order.hold(data.channel_id, async () => {
      try {
        const reaction = toInboundReaction(data, botId, await this.#reactionContext(data, client), removed);
        if (reaction) await this.#context.onReaction(reaction);
      } catch (error) {
        this.#context.logger.error({ messageId: data.message_id, chatId: data.channel_id, userId: data.user_id }, `discord: reaction not accepted: ${this.#redact(String(error))}`);
      }
    });
  }

  /**
   * What the payload leaves out: the guild channel (is it a thread, of which parent, its name),
   * fetched when the client has not cached it; in a DM, the reacting user, fetched when not cached
   * (the notice names them; a failed lookup leaves the id); the reacted message's author if cached.
   */
  async #reactionContext(data: ReactionPayload, client: Client): Promise<ReactionContext> {
    const known: ReactionContext = {};
    const cached = client.channels.cache.get(data.channel_id);
    if (data.guild_id) {
      const channel = cached ?? (await client.channels.fetch(data.channel_id));
      if (!channel) throw new Error(`discord: no channel ${data.channel_id}`);
      known.channel = {
        isThread: channel.isThread(),
        ...("name" in channel && channel.name ? { name: channel.name } : {}),
        ...(channel.isThread() ? { parentId: channel.parentId } : {}),
      };
    }
    if (!data.member?.user) {
      const user =
        client.users.cache.get(data.user_id) ??
        (await client.users.fetch(data.user_id).catch((error: unknown) => {
          this.#context.logger.debug({ userId: data.user_id }, `discord: reacting user not looked up: ${this.#redact(String(error))}`);
          return undefined;
        }));
      if (user) known.user = { username: user.username, globalName: user.globalName, discriminator: user.discriminator, bot: user.bot };
    }
    const authorId = cached?.isTextBased() ? cached.messages.cache.get(data.message_id)?.author.id : undefined;
    if (authorId) known.cachedAuthorId = authorId;
    return known;
  }
}
