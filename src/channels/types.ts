/**
 * The channel contract. A channel plugin (extensions/telegram, extensions/discord,
 * extensions/slack) only translates: platform updates become `InboundMessage`s handed to
 * `ChannelAccountContext.onInbound`, and `send` turns an outbound text chunk into one platform
 * message. Plugins never touch sessions, transcripts or the model; access control, dedupe,
 * commands, routing, chunking and the delivery ledger live in src/channels and are shared.
 */

import type { Logger } from "../infra/logger.js";

/** The states a status reaction shows (`messages.statusReactions`). */
export type StatusReactionKey = "queued" | "thinking" | "tool" | "coding" | "web" | "done" | "error" | "stallSoft" | "stallHard" | "compacting";

export type ChannelChatKind = "direct" | "group" | "channel";

/** One inbound platform message, normalized by its adapter. Ids are strings, as the platform gives them. */
export interface InboundMessage {
  /** Platform message id (Telegram `message_id`, Discord snowflake, Slack `ts`). */
  messageId: string;
  chatType: ChannelChatKind;
  /** Where a reply goes: Telegram chat id, Discord channel id (the DM channel for DMs), Slack channel id. */
  chatId: string;
  /** Telegram forum topic id, Discord thread channel id, Slack parent `thread_ts`. */
  threadId?: string;
  /** Discord: the channel a thread belongs to (allowlist entries and bindings on it cover the thread). */
  parentChatId?: string;
  senderId: string;
  senderName?: string;
  senderUsername?: string;
  /** True when the sender is a bot (ignored unless `allowBots`). */
  senderIsBot?: boolean;
  /** The text with the bot's own mention left in (the pipeline strips configured patterns). */
  text: string;
  /** Discord guild, for bindings and guild allowlists. */
  guildId?: string;
  /** Slack team, for bindings. */
  teamId?: string;
  /** Discord role ids of the sender, for `bindings[].match.roles` and guild `roles` allowlists. */
  memberRoleIds?: string[];
  /** The platform itself says the bot was @mentioned (native mention entity / `<@botId>` / app_mention). */
  mentionedBot?: boolean;
  /**
   * The message is a platform-native command (a Discord application command): the platform
   * waits for an answer to it, so every chunk of the reply goes back to it (`replyToMessageId`),
   * whatever `replyToMode` says, and it needs no @mention.
   */
  nativeCommand?: boolean;
  /** The message replies to one of the bot's own messages (implicit mention). */
  replyToBot?: boolean;
  /** Slack: the message is in a thread the bot has posted in, as this process remembers (implicit mention `threadParticipation`). */
  botInThread?: boolean;
  /**
   * Discord: the message is addressed to someone else and not the bot: it mentions another user
   * or a role (not @everyone/@here, not the user a reply pings), or replies to another bot that is
   * not a webhook (`ignoreOtherMentions` drops it).
   */
  addressedToOther?: boolean;
  replyTo?: { messageId: string; body?: string; senderId?: string };
  /** Epoch ms as the platform stamped it. */
  timestamp: number;
  /** Photos, documents, voice notes … the message carries; the pipeline saves them under the state dir. */
  media?: InboundMedia[];
}

/**
 * Someone added an emoji reaction to a message in a chat the bot is in, or (`removed`) took one
 * back; chat, thread, guild and team are as an inbound message from that chat would carry them.
 */
export interface InboundReaction {
  chatType: ChannelChatKind;
  chatId: string;
  threadId?: string;
  parentChatId?: string;
  guildId?: string;
  teamId?: string;
  /** Discord: the guild channel's name, for the notice (`#general`), when the platform said it. */
  chatName?: string;
  /** The message reacted to. */
  messageId: string;
  /**
   * Whether the reacted message is one the bot posted: the platform says so (Discord's message
   * author, Slack's `item_user`) or the adapter remembers what it sent (Telegram); undefined when
   * neither can tell, which `reactionNotifications: own` takes as not the bot's.
   */
  onBotMessage?: boolean;
  senderId: string;
  senderName?: string;
  senderUsername?: string;
  senderIsBot?: boolean;
  memberRoleIds?: string[];
  /** The emoji as the platform names it: a Unicode emoji, a Discord custom emoji's name, a Slack shortcode without colons. */
  emoji: string;
  /** The person took this emoji back (a Discord removal carries no member roles). */
  removed?: true;
}

/** One file an inbound message carries, not fetched yet. */
export interface InboundMedia {
  kind: "image" | "audio" | "video" | "document";
  fileName?: string;
  mimeType?: string;
  /** As the platform announced it, when it did. */
  sizeBytes?: number;
  /** Fetches the file; rejects when it turns out larger than `maxBytes` or the platform refuses. */
  download(maxBytes: number): Promise<Buffer>;
}

/** Where an outbound message goes. */
export interface OutboundTarget {
  chatId: string;
  threadId?: string;
  /** Reply to (quote) this platform message id, where the platform supports it. */
  replyToMessageId?: string;
}

/** A chat peer as inbound messages of that chat name it (InboundMessage `chatType`, sender or chat id, thread). */
export interface SessionPeer {
  chatType: ChannelChatKind;
  /** The user for a DM, the group or channel id otherwise. */
  peerId: string;
  threadId?: string;
  /** Discord: the server the chat is in (bindings may match on it). */
  guildId?: string;
  /** Slack: the workspace (bindings may match on it). */
  teamId?: string;
}

/** One platform message's worth of text, already chunked under the channel's limits. */
export interface OutboundText {
  /** Markdown as the model wrote it; the plugin renders it to its platform format (`renderText`). */
  markdown: string;
  /** Don't notify (Telegram `disable_notification`). */
  silent?: boolean;
}

/** A button under a message; pressing it sends `data` back as that user's message (Telegram inline keyboard, Discord button). */
export interface ChatButton {
  label: string;
  /** At most 64 bytes (Telegram's callback data limit). */
  data: string;
  /** How the platform colours it: Telegram and Discord as named (primary blue, success green, danger red); Slack has green (`success`) and red only. */
  style?: "primary" | "success" | "danger";
}

/** A file to post: a path on this machine (already checked by the caller) and the name the chat shows. */
export interface OutboundFile {
  path: string;
  fileName: string;
  /** Plain text under the file. */
  caption?: string;
  /** Speech: posted as a voice message where the platform has them and the file is Ogg/Opus (Telegram's sendVoice); elsewhere an ordinary file. */
  voice?: boolean;
}

export interface SentMessage {
  /** Platform message id of what was posted. */
  messageId: string;
}

/**
 * The platform refused for a while (HTTP 429 and the like). Delivery waits `retryAfterMs` and
 * tries again; it is never counted as a failed attempt.
 */
export class ChannelRateLimitError extends Error {
  readonly retryAfterMs: number;
  constructor(message: string, retryAfterMs: number) {
    super(message);
    this.name = "ChannelRateLimitError";
    this.retryAfterMs = retryAfterMs;
  }
}

/** The platform rejected the message for good (chat not found, bot blocked, bad token): never retried. */
export class ChannelPermanentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChannelPermanentError";
  }
}

export interface ChannelLimits {
  /** Characters per message after rendering (Telegram 4000, Discord 2000, Slack 8000). */
  textChunkLimit: number;
  /** Discord's 17-line soft limit: longer replies are split so they don't collapse. */
  maxLinesPerMessage?: number;
  /** `streaming.chunkMode: newline`: a long reply is split at paragraph breaks only, a paragraph by length only when it alone is too long. */
  chunkMode?: "newline";
}

/** How block streaming behaves on a platform (see `BlockStreamingSettings`). */
export interface BlockStreamingTraits {
  /** `agents.defaults.blockStreamingDefault: on` turns it on here without `streaming.block.enabled: true`. */
  followsAgentDefault?: boolean;
  /** The platform's coalescing defaults, under `streaming.block.coalesce` and `agents.defaults.blockStreamingCoalesce`. */
  coalesce?: { minChars?: number; idleMs?: number };
}

export interface ChannelAccountStatus {
  accountId: string;
  /** `start` was called and `stop` was not. */
  running: boolean;
  /** The platform connection is up right now (poll answered, gateway READY, socket open). */
  connected: boolean;
  /** Reconnects since start (polling errors, gateway resumes, socket restarts). */
  reconnectAttempts: number;
  lastConnectedAt: number | null;
  /** The last error, already free of tokens. */
  lastError: string | null;
  /** Delivery mode, e.g. `polling` / `webhook` (Telegram), `socket` / `http` (Slack), `gateway` (Discord). */
  mode?: string;
  /** The bot's own user id / username, once known. */
  botId?: string;
  botUsername?: string;
}

/** An HTTP route a plugin serves on the gateway's own port (Slack `/slack/events`, Telegram webhook). */
export interface ChannelHttpRoute {
  method: "POST" | "GET";
  path: string;
  /** Raw body as received (signature checks need the exact bytes). */
  handler(request: { headers: Record<string, string | string[] | undefined>; rawBody: Buffer }): Promise<{
    status: number;
    headers?: Record<string, string>;
    body?: string;
  }>;
}

export interface ChannelAccountContext {
  accountId: string;
  /** The account's own config block, merged over the channel's top-level keys. */
  config: Readonly<Record<string, unknown>>;
  /** `<state>/channels/<channel>/<accountId>/` — plugin-private state (e.g. nothing, or a polling watermark). */
  stateDir: string;
  logger: Logger;
  /**
   * Hand one inbound message to the gateway. Resolves once it is safely recorded (deduped,
   * persisted, queued): only then may a plugin commit its platform offset / ack.
   */
  onInbound(envelope: InboundMessage): Promise<void>;
  /**
   * Hand one reaction (or its removal) to the gateway (`reactionNotifications`, reactions as
   * feedback): resolves once the notice it makes and the rating it records, if any, are on disk;
   * only then may a plugin commit its platform offset.
   */
  onReaction(reaction: InboundReaction): Promise<void>;
  /** Serve a route on the gateway's HTTP port (Slack HTTP Events, Telegram webhook). */
  registerHttpRoute(route: ChannelHttpRoute): void;
  /** The plugin reports connection changes; the gateway shows them in health/status. */
  reportStatus(patch: Partial<Omit<ChannelAccountStatus, "accountId">>): void;
  /**
   * The chat commands to show in the platform's own command menu (Telegram `setMyCommands`), then
   * the account's agent's skill commands (`commands.nativeSkills`), read when the account connects;
   * empty when `commands.native` or `commands.text` is off.
   */
  nativeCommands(): Promise<readonly NativeCommand[]>;
}

/** One entry of a platform's command menu: a lowercase name (no slash) and a short description. */
export interface NativeCommand {
  command: string;
  description: string;
  /** What the command takes after its name (`<mode>`, `[model]`), when it takes anything. */
  args?: string;
}

/** One running bot account on one platform. */
export interface ChannelAccount {
  /**
   * Replying to a message is answering in its thread, not quoting it (Slack): every chunk of a
   * reply goes there, so `replyToMode: first` threads the whole reply as `all` does.
   */
  readonly repliesInThread?: true;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Post one chunk. Throws `ChannelRateLimitError` / `ChannelPermanentError` where it can tell. */
  send(target: OutboundTarget, text: OutboundText): Promise<SentMessage>;
  /** Typing indicator, refreshed by the caller every few seconds while a run is active. */
  sendTyping?(target: OutboundTarget): Promise<void>;
  /** Replace a message's text (preview streaming); buttons `setButtons` put under it go. */
  editMessage?(target: OutboundTarget, messageId: string, text: OutboundText): Promise<void>;
  /**
   * Put rows of buttons under one of the bot's messages, whose text `text` is (as posted): a
   * platform whose buttons are part of the message body (Slack's blocks) writes it again with
   * them. Absent where the platform has none.
   */
  setButtons?(target: OutboundTarget, messageId: string, rows: readonly (readonly ChatButton[])[], text: OutboundText): Promise<void>;
  /** Remove one of the bot's own messages (a streamed draft whose reply turned out silent). */
  deleteMessage?(target: OutboundTarget, messageId: string): Promise<void>;
  react?(target: OutboundTarget, messageId: string, emoji: string): Promise<void>;
  /** Takes back one of the bot's reactions (status reactions move from one emoji to the next). */
  unreact?(target: OutboundTarget, messageId: string, emoji: string): Promise<void>;
  /** Takes back every reaction the bot has on a message (Telegram, where a bot has one per message). */
  clearReactions?(target: OutboundTarget, messageId: string): Promise<void>;
  /** A reaction replaces the bot's last one on that message: status reactions need no `unreact`. */
  readonly reactionReplaces?: true;
  /**
   * The emoji this platform can show for a status reaction (`wanted` is the default one), or
   * undefined when it has none for it. Absent: `wanted` as it is.
   */
  statusEmoji?(status: StatusReactionKey, wanted: string): string | undefined;
  /** Post one file (an image shows as a picture where the platform can), with an optional caption. */
  sendFile(target: OutboundTarget, file: OutboundFile): Promise<SentMessage>;
  /**
   * Open a new thread titled `title` in `target`'s chat (thread-bound sub-agents) and return
   * where to post in it — the same `chatId` / `threadId` inbound messages in that thread carry.
   * Absent where the platform has no threads; throws `ChannelPermanentError` with the reason
   * where this chat cannot have one (a Telegram group that is not a forum, a Discord DM).
   */
  createThread?(target: OutboundTarget, title: string): Promise<OutboundTarget>;
  /**
   * Parse a user-written target (`123`, `@name`, `channel:C1`, `user:U1`, `<chatId>:topic:<id>`)
   * into where to send. A `user:` target may need an API call (open the DM channel).
   */
  resolveTarget(raw: string): Promise<OutboundTarget>;
  /**
   * Who a user-written target is as inbound messages key their session: a DM's peer is the user,
   * a group's or channel's is the chat (`agent` with `to` runs in that peer's session). Absent where
   * a target cannot tell; throws, saying why, for a target that does not name one peer.
   */
  sessionPeer?(raw: string): Promise<SessionPeer>;
  /** A line for the pairing reply, e.g. `Your Telegram user id: 123`. */
  describeSender(senderId: string): string;
  /**
   * The earlier messages of a thread (its root counts as one), oldest first: at most `limit` of
   * them, the most recent written before `beforeMessageId`, which is left out, as is anything after
   * it. The bot's own posts are included. Resolves to none where the platform refused (a missing
   * scope, logged by the plugin); absent where the platform cannot read a thread back.
   */
  threadHistory?(chatId: string, threadId: string, limit: number, beforeMessageId: string): Promise<ThreadHistoryMessage[]>;
}

/** One earlier message of a thread, as `threadHistory` reads it back. */
export interface ThreadHistoryMessage {
  messageId: string;
  senderId: string;
  senderName?: string;
  text: string;
  /** Written by a bot (this one or another). */
  isBot?: boolean;
}

/** What a plugin module exports as default. */
export interface ChannelPlugin {
  /** `telegram`, `discord`, `slack`. */
  readonly id: string;
  readonly label: string;
  /** Default limits, before `textChunkLimit` / `maxLinesPerMessage` overrides in config. */
  readonly defaultLimits: ChannelLimits;
  /** Absent: block streaming only where `streaming.block.enabled: true`, with the agent's coalescing. */
  readonly blockStreaming?: BlockStreamingTraits;
  /**
   * Config problems that stop this account from starting (missing token, …), as messages the
   * user can act on. An empty list means the account is configured.
   * `accountId` (optional, `default` when omitted) tells whether env fallbacks such as
   * `SLACK_BOT_TOKEN` apply: they belong to the default account only.
   */
  checkAccountConfig(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId?: string): string[];
  /**
   * The bot token this account would connect with, resolved as its start resolves it (token
   * files and the default account's environment variable read), or undefined when it has none.
   * The channel manager only compares it, so no two accounts run one bot; it is never shown.
   */
  botToken(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId: string): string | undefined;
  /**
   * The credential this account opens its event connection with, where the platform hands each
   * event of that credential to one of the connections opened with it (Slack Socket Mode's app
   * token), resolved as its start resolves it; undefined when the account opens no such
   * connection. The channel manager only compares it, so no two accounts split one stream of
   * events; it is never shown. Absent where the platform has no such credential.
   */
  eventStreamToken?(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId: string): string | undefined;
  createAccount(context: ChannelAccountContext, env: NodeJS.ProcessEnv): ChannelAccount;
}

/** What a channel account's credential check found: who the token belongs to, or why it failed. */
export type ChannelAccountProbe = { ok: true; identity: string } | { ok: false; problem: string };

/**
 * One cheap authenticated request with an account's token (Telegram `getMe`, Discord
 * `users/@me`, Slack `auth.test`), for `openclaw doctor`. A module of its own per channel, so a
 * check never loads the channel's SDK. Problems never quote the token.
 */
export type ChannelAccountProber = (config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId: string, signal: AbortSignal) => Promise<ChannelAccountProbe>;
