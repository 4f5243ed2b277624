import {
  Events,
  GatewayDispatchEvents,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type GatewayMessageReactionAddDispatchData,
  type GatewayMessageReactionRemoveDispatchData,
  type Message,
} from "discord.js";
import { ChannelPermanentError, type ChannelAccountStatus } from "../../src/channels/types.js";
import type { Logger } from "../../src/infra/logger.js";
import { createDiscordClient } from "./client-factory.js";
import type { ReactionPayload } from "./inbound.js";
import type { DiscordSettings } from "./config.js";
import { describeFinalClose, permanentLoginProblem, type Redactor } from "./errors.js";

export interface DiscordConnectionOptions {
  settings: DiscordSettings;
  logger: Logger;
  redact: Redactor;
  reportStatus(patch: Partial<Omit<ChannelAccountStatus, "accountId">>): void;
  /** Every MESSAGE_CREATE of the current client, with the bot's own user id. */
  onMessage(message: Message, botId: string): void;
  /**
   * Every MESSAGE_REACTION_ADD (and, `removed`, MESSAGE_REACTION_REMOVE) of the current client as
   * Discord sent it, with the bot's own user id: the raw payload says who wrote the reacted message
   * (`message_author_id`) and arrives for messages the client never cached, which discord.js's own
   * reaction event drops or leaves out.
   */
  onReaction(data: ReactionPayload, client: Client, botId: string, removed: boolean): void;
  /** Every slash command a user ran (INTERACTION_CREATE of a chat-input command) on the current client. */
  onCommand(interaction: ChatInputCommandInteraction): void;
  /** Every press of a button under one of the bot's messages (INTERACTION_CREATE of a button) on the current client. */
  onButton(interaction: ButtonInteraction): void;
  /** A new client became READY (not a resume): the moment to publish what Discord should know. */
  onReady(client: Client): void;
}

/** First delay before building a new client; it doubles up to `reconnectBackoffMaxMs`. */
const BACKOFF_BASE_MS = 1000;
/** Destroying a client waits at most this long for the close handshake of a socket that may be dead. */
const DESTROY_WAIT_MS = 2000;

/**
 * Keeps one discord.js client logged in. discord.js resumes dropped sockets by itself; what it
 * cannot get out of is a connection that never becomes READY — a gateway that accepts the socket
 * and never says HELLO, a resume loop, a shard it gave up on. So a watchdog runs whenever the
 * client is not READY: after `reconnectWatchdogMs` the client is destroyed and a new one built
 * (delays doubling up to `reconnectBackoffMaxMs`). A rejected token or refused intent is
 * permanent: reported once, never retried.
 *
 * Each client gets a generation number; events from a client that was already replaced are
 * ignored, so a late event from a destroyed client cannot flip the status.
 */
export class DiscordConnection {
  readonly #options: DiscordConnectionOptions;
  #client: Client | null = null;
  #generation = 0;
  #running = false;
  #watchdog: NodeJS.Timeout | undefined;
  #rebuildTimer: NodeJS.Timeout | undefined;
  #rebuildsInARow = 0;
  #reconnectAttempts = 0;
  #permanentProblem: string | null = null;

  constructor(options: DiscordConnectionOptions) {
    this.#options = options;
  }

  /** Starts connecting; connection progress arrives through `reportStatus`. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#permanentProblem = null;
    this.#options.reportStatus({ mode: "gateway", connected: false, reconnectAttempts: this.#reconnectAttempts, lastError: null });
    this.#connect();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#clearTimers();
    const client = this.#retire();
    this.#options.reportStatus({ connected: false });
    if (client) await this.#destroy(client);
  }

  /**
   * The client for REST calls. discord.js can send as soon as login began, READY or not; between
   * two clients there is none, which is a transient failure — unless the account failed for good.
   */
  get client(): Client {
    if (this.#client) return this.#client;
    if (this.#permanentProblem) throw new ChannelPermanentError(this.#permanentProblem);
    throw new Error(this.#running ? "discord: not connected (the client is being rebuilt)" : "discord: the account is not running");
  }

  #connect(): void {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    const client = createDiscordClient(this.#options.settings, () => !current());
    this.#client = client;
    client.on(Events.ShardReady, () => {
      if (!current()) return;
      this.#onReady(client);
      this.#options.onReady(client);
    });
    client.on(Events.ShardResume, () => current() && this.#onReady(client));
    client.on(Events.ShardReconnecting, () => current() && this.#onSocketLost());
    client.on(Events.ShardDisconnect, ({ code }) => current() && this.#onShardGaveUp(code));
    client.on(Events.ShardError, (error) => current() && this.#noteError(`discord: gateway error: ${error.message}`));
    // Without a listener an `error` event would throw out of discord.js.
    client.on(Events.Error, (error) => this.#options.logger.warn(`discord: client error: ${this.#options.redact(error.message)}`));
    client.on(Events.MessageCreate, (message) => {
      if (current() && client.user) this.#options.onMessage(message, client.user.id);
    });
    client.ws.on(GatewayDispatchEvents.MessageReactionAdd, (data: GatewayMessageReactionAddDispatchData) => {
      if (current() && client.user) this.#options.onReaction(data, client, client.user.id, false);
    });
    client.ws.on(GatewayDispatchEvents.MessageReactionRemove, (data: GatewayMessageReactionRemoveDispatchData) => {
      if (current() && client.user) this.#options.onReaction(data, client, client.user.id, true);
    });
    client.on(Events.InteractionCreate, (interaction) => {
      if (!current()) return;
      if (interaction.isChatInputCommand()) this.#options.onCommand(interaction);
      else if (interaction.isButton()) this.#options.onButton(interaction);
    });
    this.#armWatchdog();
    client.login(this.#options.settings.token).catch((error: unknown) => {
      if (current()) this.#onLoginFailed(error);
    });
  }

  #onReady(client: Client): void {
    this.#disarmWatchdog();
    this.#rebuildsInARow = 0;
    this.#options.reportStatus({ connected: true, lastConnectedAt: Date.now(), botId: client.user?.id, botUsername: client.user?.username });
  }

  /** discord.js lost the socket and is resuming or re-identifying on its own; the watchdog covers it. */
  #onSocketLost(): void {
    this.#reconnectAttempts++;
    this.#options.reportStatus({ connected: false, reconnectAttempts: this.#reconnectAttempts });
    this.#armWatchdog();
  }

  /** discord.js only gives up on a shard for close codes that need the operator (bad token, intents). */
  #onShardGaveUp(code: number): void {
    this.#failForGood(describeFinalClose(code));
  }

  #onLoginFailed(error: unknown): void {
    const problem = permanentLoginProblem(error);
    if (problem) this.#failForGood(problem);
    else this.#rebuild(`discord: login failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  #noteError(message: string): void {
    const text = this.#options.redact(message);
    this.#options.logger.warn(text);
    this.#options.reportStatus({ lastError: text });
  }

  #failForGood(problem: string): void {
    this.#permanentProblem = problem;
    // Not running any more: a later `start()` (after the operator fixed the config) tries again.
    this.#running = false;
    this.#clearTimers();
    const client = this.#retire();
    this.#options.logger.error(problem);
    this.#options.reportStatus({ connected: false, lastError: problem });
    if (client) void this.#destroy(client);
  }

  /** Destroy the current client and build a new one after the backoff delay. */
  #rebuild(reason: string): void {
    if (!this.#running) return;
    const client = this.#retire();
    if (client) void this.#destroy(client);
    const delayMs = Math.min(BACKOFF_BASE_MS * 2 ** this.#rebuildsInARow, this.#options.settings.reconnectBackoffMaxMs);
    this.#rebuildsInARow++;
    this.#reconnectAttempts++;
    const text = this.#options.redact(reason);
    this.#options.logger.warn({ delayMs, reconnectAttempts: this.#reconnectAttempts }, text);
    this.#options.reportStatus({ connected: false, lastError: text, reconnectAttempts: this.#reconnectAttempts });
    this.#rebuildTimer = setTimeout(() => {
      this.#rebuildTimer = undefined;
      if (this.#running) this.#connect();
    }, delayMs);
  }

  /** Detach the current client: from now on its events are ignored. */
  #retire(): Client | null {
    const client = this.#client;
    this.#client = null;
    this.#generation++;
    this.#disarmWatchdog();
    return client;
  }

  #armWatchdog(): void {
    if (this.#watchdog) return;
    const { reconnectWatchdogMs } = this.#options.settings;
    this.#watchdog = setTimeout(() => {
      this.#watchdog = undefined;
      this.#rebuild(`discord: gateway not READY for ${reconnectWatchdogMs} ms; rebuilding the client`);
    }, reconnectWatchdogMs);
  }

  #disarmWatchdog(): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = undefined;
  }

  #clearTimers(): void {
    this.#disarmWatchdog();
    clearTimeout(this.#rebuildTimer);
    this.#rebuildTimer = undefined;
  }

  /** A dead peer can hold the close handshake for 30 s; nobody waits that long for it. */
  async #destroy(client: Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DESTROY_WAIT_MS);
    });
    const destroyed = client.destroy().catch((error: unknown) => {
      this.#options.logger.warn(`discord: destroying the client failed: ${this.#options.redact(String(error))}`);
    });
    await Promise.race([destroyed, gaveUp]);
    clearTimeout(timer);
  }
}
