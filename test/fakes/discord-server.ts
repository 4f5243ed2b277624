import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { readBody } from "./model-server/http-io.js";
import { trackConnections } from "./open-connections.js";
import { parseMultipart, UploadedFile } from "./multipart.js";

/**
 * A fake Discord for the REAL discord.js 14 client: the REST API under `/api/v10` and the gateway
 * WebSocket (JSON encoding, no compression) on one 127.0.0.1 port. It keeps one replay log per
 * gateway session, so a RESUME after a dropped socket replays what was dispatched meanwhile, as
 * Discord does. Tests break it on purpose: scripted REST failures, dropped sockets, a gateway that
 * accepts the socket and then says nothing (the "zombie" connection).
 *
 * Routes discord.js asks for that the fake does not serve are answered 404 and listed in
 * `unhandledRoutes`, so a test can assert the fake covered everything the client needed.
 *
 * Reactions (`pushReaction`) honour the intents the session identified with, as Discord does:
 * a guild reaction needs GUILD_MESSAGE_REACTIONS (1 << 10), a DM reaction
 * DIRECT_MESSAGE_REACTIONS (1 << 13); without them the event is never sent (nor replayed).
 * Messages are dispatched whatever the intents.
 */
export interface FakeDiscord {
  /** Value for the plugin's `restApiUrl` (`http://127.0.0.1:PORT/api`); the gateway URL comes from `GET /gateway/bot`. */
  readonly restUrl: string;
  /** `ws://127.0.0.1:PORT`: the gateway and the `resume_gateway_url`. */
  readonly gatewayUrl: string;
  readonly token: string;
  readonly botId: string;
  /** Every REST request, in order (path below `/api/v10`, URL-decoded; parsed JSON body). */
  readonly sent: RecordedRequest[];
  /** `METHOD /path` of requests no route answered. */
  readonly unhandledRoutes: string[];
  /** Gateway sockets opened, IDENTIFYs accepted, RESUMEs accepted. */
  readonly connectionCount: number;
  readonly identifyCount: number;
  readonly resumeCount: number;
  /** `d.intents` of the last IDENTIFY. */
  readonly lastIdentifyIntents: number | null;
  /** `d.presence` of the last IDENTIFY (the bot's status and activities), as sent. */
  readonly lastIdentifyPresence: unknown;
  /** Dispatches MESSAGE_CREATE from a user; queued for RESUME replay while the socket is down. */
  pushMessage(input: PushMessageInput): FakeApiMessage;
  /**
   * A user adds an emoji to a message the fake knows (pushed, or posted by the bot): MESSAGE_REACTION_ADD
   * with `message_author_id` (and `member` in a guild), as Discord sends it; with `removed`, takes it
   * back: MESSAGE_REACTION_REMOVE, with neither. Returns whether it was
   * dispatched: not when the session did not identify with the reaction intent for that place.
   */
  pushReaction(input: PushReactionInput): boolean;
  /**
   * Dispatches INTERACTION_CREATE for an application (slash) command a user ran; returns the
   * interaction id. Its answers (callback, `@original` edits, follow-ups) land in `interactionReplies`.
   */
  pushCommand(input: PushCommandInput): string;
  /**
   * A user presses a button under message `messageId` (INTERACTION_CREATE of a message component,
   * `custom_id` its data); returns the interaction id. Its answers land in `interactionReplies`.
   */
  pushButton(input: PushButtonInput): string;
  /** A message as the fake holds it now (after the bot's edits: `content`, `components`), or undefined once deleted. */
  storedMessage(id: string): FakeApiMessage | undefined;
  /** The application commands the bot registered last (`PUT /applications/:id/commands`), as sent. */
  registeredCommands(): Json[];
  /** What the bot answered to interaction `id`, in order. */
  interactionReplies(id: string): InteractionReply[];
  /** Files the bot uploaded with a message (multipart `POST /channels/:id/messages`), in order. */
  readonly uploads: Array<{ channelId: string; fileName: string; bytes: Buffer; content: string }>;
  /** Messages the bot POSTed, optionally for one channel. */
  messages(channelId?: string): PostedMessage[];
  /** Ids of messages the bot deleted (`DELETE /channels/:id/messages/:id`), in order. */
  readonly deletedMessageIds: string[];
  /** Threads the bot started (`POST /channels/:id/threads`), in order; each is a channel messages can be pushed to. */
  createdThreads(): FakeGuildChannel[];
  /** The next request matching `route` (`"POST /channels/1/messages"`, a bare path, or a RegExp on `METHOD /path`) fails once. */
  failNext(route: string | RegExp, failure: FailureSpec): void;
  /**
   * Closes the current gateway socket. Resumable: close code 4000 (discord.js resumes) and every
   * dispatch until the RESUME is queued for replay. Not resumable: the session is forgotten and the
   * socket closed 1000, so the client has to IDENTIFY again.
   */
  dropConnection(options?: { resumable?: boolean }): Promise<void>;
  /** While on, new gateway sockets are accepted but never get HELLO: a zombie connection. */
  stallGateway(on: boolean): void;
  /** The next REST request matching `route` (as in `failNext`) is held unanswered until `release()`; `hungRequests` counts those held so far. */
  hangNext(route: string | RegExp): void;
  readonly hungRequests: number;
  /** Answers every held request now, as if the platform had only been slow; one whose client went away is dropped. */
  release(): void;
  /** Forgets every `failNext` and `hangNext` not met yet and ends `stallGateway`; held requests stay held. */
  clearArmed(): void;
  /** TCP connections open now (REST calls and gateway sockets). */
  readonly openConnections: number;
  /**
   * Destroys every open connection, keeping the listener and what was recorded. Call it once the
   * clients are gone (a killed gateway): a request one sent just before, not yet read, is then never recorded.
   */
  dropConnections(): void;
  /** Closes the server and every socket. */
  close(): Promise<void>;
}

export interface FakeGuildChannel {
  id: string;
  name: string;
  /** Discord `ChannelType`: 0 text, 5 announcement, 10/11/12 announcement/public/private thread. */
  type: number;
  /** For threads: the channel they hang off. */
  parentId?: string;
}

export interface FakeRole {
  id: string;
  name: string;
  /** Makes this the managed role Discord gives a bot (`tags.bot_id`). */
  botId?: string;
}

export interface FakeGuild {
  id: string;
  name: string;
  channels: FakeGuildChannel[];
  /** @everyone (id = guild id) is always added. */
  roles?: FakeRole[];
}

export interface FakeDiscordOptions {
  token?: string;
  botId?: string;
  botName?: string;
  guilds?: FakeGuild[];
  /** HELLO's heartbeat_interval; Discord uses ~41 s, tests use a few hundred ms. */
  heartbeatIntervalMs?: number;
}

export interface PushMessageInput {
  channelId: string;
  /** Omitted for DMs; then `channelId` names a DM channel with the author (created if new). */
  guildId?: string;
  authorId: string;
  authorName?: string;
  authorIsBot?: boolean;
  content: string;
  id?: string;
  /** Lists the bot in `mentions` (write `<@botId>` into `content` too, as a client would). */
  mentionsBot?: boolean;
  /** Other users listed in `mentions` (write `<@id>` into `content` too). */
  mentionUserIds?: string[];
  mentionRoleIds?: string[];
  /** The author's role ids in the guild. */
  memberRoles?: string[];
  /** A message the fake knows (pushed or posted by the bot) that this one replies to. */
  referencedMessageId?: string;
  attachments?: string[];
  /** Attachments with content: served by the fake at their `url` (the CDN stand-in). */
  files?: Array<{ filename: string; bytes: Buffer; contentType: string }>;
}

export interface PushReactionInput {
  /** The reacted message's channel (a DM channel the fake made for a pushed DM, or a guild channel). */
  channelId: string;
  messageId: string;
  userId: string;
  userName?: string;
  /** The reacting member's guild nickname. */
  nick?: string;
  /** The reacting member's role ids (guild reactions). */
  memberRoles?: string[];
  /** A Unicode emoji, or a custom emoji `{ id, name }`. */
  emoji: string | { id: string; name: string };
  /** Leaves `message_author_id` out (Discord's field is optional). */
  withoutMessageAuthor?: boolean;
  /** The user takes the emoji back: MESSAGE_REACTION_REMOVE, which names neither the member nor the message's author. */
  removed?: true;
}

export interface PushButtonInput {
  /** The channel of the message (a DM channel id the fake knows, or a configured guild channel). */
  channelId: string;
  messageId: string;
  userId: string;
  userName?: string;
  customId: string;
}

export interface PushCommandInput {
  channelId: string;
  /** Omitted for DMs; then `channelId` names a DM channel with the user (created if new). */
  guildId?: string;
  userId: string;
  userName?: string;
  memberRoles?: string[];
  /** A command name the bot registered. */
  name: string;
  /** The value of the command's `args` option, if the user gave one. */
  args?: string;
}

/**
 * One answer to an interaction: the initial callback (`type` 4 reply, 5 deferred reply, 6 deferred
 * update, 7 update of the component's message), an edit of the original response, or a follow-up.
 */
export interface InteractionReply {
  kind: "callback" | "original" | "followup";
  type?: number;
  content?: string;
  flags?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface PostedMessage {
  id: string;
  channelId: string;
  content: string;
  /** The JSON body discord.js sent (`flags`, `allowed_mentions`, `message_reference`, …). */
  body: Record<string, unknown>;
}

export interface FailureSpec {
  status: number;
  /** Discord's JSON error code (50001 Missing Access, 10003 Unknown Channel, 50007 cannot DM). */
  code?: number;
  message?: string;
  /** Seconds, as Discord sends it, for 429. */
  retryAfter?: number;
}

export type FakeApiMessage = Record<string, unknown> & { id: string; channel_id: string };

type Json = Record<string, unknown>;

interface GatewaySession {
  id: string;
  /** `d.intents` of the IDENTIFY that opened the session. */
  intents: number;
  seq: number;
  log: Array<{ op: 0; t: string; s: number; d: unknown }>;
  /** The socket dispatches go to right now; null while dropped (dispatches wait in `log`). */
  socket: WebSocket | null;
}

interface ChannelRecord {
  api: Json;
  guildId?: string;
}

interface RouteResult {
  status: number;
  body?: unknown;
}

const DISCORD_EPOCH = 1_420_070_400_000n;
const GUILD_MESSAGE_REACTIONS = 1 << 10;
const DIRECT_MESSAGE_REACTIONS = 1 << 13;
const API_PREFIX = "/api/v10";
const ERROR_MESSAGES: Record<number, string> = {
  10003: "Unknown Channel",
  10008: "Unknown Message",
  10013: "Unknown User",
  50001: "Missing Access",
  50024: "Cannot execute action on this channel type",
  50007: "Cannot send messages to this user",
  50013: "Missing Permissions",
};

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = options.token ?? "fake-discord-token";
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 41_250;
  let lastSnowflake = 0n;
  const snowflake = (): string => {
    const fromClock = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    lastSnowflake = fromClock > lastSnowflake ? fromClock : lastSnowflake + 1n;
    return lastSnowflake.toString();
  };
  const botId = options.botId ?? snowflake();
  const botUser = apiUser(botId, options.botName ?? "fakebot", true);
  const users = new Map<string, Json>([[botId, botUser]]);
  const guilds = options.guilds ?? [];
  const channels = new Map<string, ChannelRecord>();
  for (const guild of guilds) for (const channel of guild.channels) channels.set(channel.id, { api: apiGuildChannel(guild.id, channel, botId), guildId: guild.id });
  const storedMessages = new Map<string, FakeApiMessage>();
  /** Attachment bytes by URL path (`/attachments/<id>/<filename>`). */
  const attachmentFiles = new Map<string, Buffer>();
  const posted: PostedMessage[] = [];
  const deletedMessageIds: string[] = [];
  const uploads: FakeDiscord["uploads"] = [];
  /** The files of the request being routed (route handlers take the JSON body only). */
  let currentFiles: UploadedFile[] = [];
  const createdThreads: FakeGuildChannel[] = [];
  const sent: RecordedRequest[] = [];
  const unhandledRoutes: string[] = [];
  const failures: Array<{ route: string | RegExp; failure: FailureSpec }> = [];
  const sessions = new Map<string, GatewaySession>();
  let registeredCommands: Json[] = [];
  /** `messageId`: the message a component interaction's buttons are under (an UPDATE_MESSAGE answer edits it). */
  const interactions = new Map<string, { token: string; channel: ChannelRecord; messageId?: string; replies: InteractionReply[] }>();
  const interactionByToken = (interactionToken: string) => [...interactions.values()].find((i) => i.token === interactionToken);
  let latestSession: GatewaySession | null = null;
  let stalled = false;
  const hangs: Array<string | RegExp> = [];
  let hungRequests = 0;
  const held: Array<() => void> = [];
  const counters = { connections: 0, identifies: 0, resumes: 0, lastIntents: null as number | null, lastPresence: undefined as unknown };

  const dispatch = (session: GatewaySession, t: string, d: unknown): void => {
    const entry = { op: 0 as const, t, s: ++session.seq, d };
    session.log.push(entry);
    if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(JSON.stringify(entry));
  };

  /** INTERACTION_CREATE as Discord sends it (type 2 a slash command, 3 a message component); returns the interaction id. */
  const dispatchInteraction = (
    session: GatewaySession,
    input: { type: 2 | 3; channel: ChannelRecord; user: Json; memberRoles: string[]; data: Json; message?: FakeApiMessage },
  ): string => {
    const { channel, user } = input;
    const id = snowflake();
    const interactionToken = `interaction-token-${id}`;
    interactions.set(id, { token: interactionToken, channel, ...(input.message ? { messageId: input.message.id } : {}), replies: [] });
    const { guildId } = channel;
    const payload: Json = {
      id,
      application_id: botId,
      type: input.type,
      token: interactionToken,
      version: 1,
      locale: "en-US",
      app_permissions: "0",
      entitlements: [],
      authorizing_integration_owners: {},
      context: guildId ? 0 : 1,
      channel_id: channel.api.id,
      channel: channel.api,
      ...(input.message ? { message: input.message } : {}),
      data: input.data,
    };
    if (guildId) {
      payload.guild_id = guildId;
      payload.member = { user, roles: input.memberRoles, permissions: "0", joined_at: new Date().toISOString(), deaf: false, mute: false, nick: null, flags: 0 };
    } else {
      payload.user = user;
    }
    dispatch(session, "INTERACTION_CREATE", payload);
    return id;
  };

  const dmChannelWith = (user: Json, channelId = snowflake()): ChannelRecord => {
    for (const record of channels.values()) {
      const recipients = record.api.recipients as Json[] | undefined;
      if (recipients?.some((r) => r.id === user.id)) return record;
    }
    const record = { api: { id: channelId, type: 1, recipients: [user], last_message_id: null, flags: 0 } };
    channels.set(channelId, record);
    return record;
  };

  const storeAndDispatch = (message: FakeApiMessage): void => {
    storedMessages.set(message.id, message);
    if (latestSession) dispatch(latestSession, "MESSAGE_CREATE", message);
  };

  // ---- REST -------------------------------------------------------------------------------

  const routes: Array<{ method: string; pattern: RegExp; handle(match: string[], body: Json): RouteResult }> = [
    {
      method: "GET",
      pattern: /^\/gateway\/bot$/,
      handle: () => ({ status: 200, body: { url: gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } } }),
    },
    { method: "GET", pattern: /^\/users\/@me$/, handle: () => ({ status: 200, body: botUser }) },
    {
      method: "GET",
      pattern: /^\/users\/(\d+)$/,
      handle: ([, userId]) => {
        const user = users.get(userId!);
        return user ? { status: 200, body: user } : apiError(404, 10013);
      },
    },
    {
      method: "POST",
      pattern: /^\/users\/@me\/channels$/,
      handle: (_match, body) => {
        const recipientId = String(body.recipient_id ?? "");
        if (!/^\d+$/.test(recipientId)) return apiError(400, 50035, "Invalid Form Body");
        const user = users.get(recipientId) ?? apiUser(recipientId, `user${recipientId}`, false);
        return { status: 200, body: dmChannelWith(user).api };
      },
    },
    {
      method: "GET",
      pattern: /^\/guilds\/(\d+)$/,
      handle: ([, guildId]) => {
        const guild = guilds.find((g) => g.id === guildId);
        return guild ? { status: 200, body: apiGuild(guild, botUser) } : apiError(404, 10004, "Unknown Guild");
      },
    },
    {
      method: "GET",
      pattern: /^\/channels\/(\d+)$/,
      handle: ([, channelId]) => {
        const record = channels.get(channelId!);
        return record ? { status: 200, body: record.api } : apiError(404, 10003);
      },
    },
    {
      method: "POST",
      pattern: /^\/channels\/(\d+)\/messages$/,
      handle: ([, channelId], body) => {
        const record = channels.get(channelId!);
        if (!record) return apiError(404, 10003);
        const content = typeof body.content === "string" ? body.content : "";
        const reference = body.message_reference as Json | undefined;
        const referenced = reference ? storedMessages.get(String(reference.message_id)) : undefined;
        const message = buildMessage({ id: snowflake(), channel: record, author: botUser, content, flags: Number(body.flags ?? 0), referenced });
        for (const file of currentFiles) uploads.push({ channelId: channelId!, fileName: file.name, bytes: file.bytes, content });
        posted.push({ id: message.id, channelId: channelId!, content, body });
        storeAndDispatch(message);
        return { status: 200, body: message };
      },
    },
    {
      method: "PATCH",
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      handle: ([, channelId, messageId], body) => {
        const message = storedMessages.get(messageId!);
        if (!message || message.channel_id !== channelId) return apiError(404, 10008);
        if (typeof body.content === "string") message.content = body.content;
        if (body.flags !== undefined) message.flags = Number(body.flags);
        if (body.components !== undefined) message.components = body.components;
        message.edited_timestamp = new Date().toISOString();
        return { status: 200, body: message };
      },
    },
    {
      method: "DELETE",
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      handle: ([, channelId, messageId]) => {
        const message = storedMessages.get(messageId!);
        if (!message || message.channel_id !== channelId) return apiError(404, 10008);
        storedMessages.delete(messageId!);
        deletedMessageIds.push(messageId!);
        return { status: 204 };
      },
    },
    {
      // Starting a thread without a message (discord.js `channel.threads.create`): public unless `type` says 12.
      method: "POST",
      pattern: /^\/channels\/(\d+)\/threads$/,
      handle: ([, channelId], body) => {
        const parent = channels.get(channelId!);
        if (!parent) return apiError(404, 10003);
        const parentType = Number(parent.api.type);
        if (!parent.guildId || (parentType !== 0 && parentType !== 5)) return apiError(400, 50024);
        const name = typeof body.name === "string" ? body.name : "";
        if (name.length < 1 || name.length > 100) return apiError(400, 50035, "Invalid Form Body");
        const thread: FakeGuildChannel = { id: snowflake(), name, type: parentType === 5 ? 10 : body.type === 12 ? 12 : 11, parentId: channelId };
        const api = apiGuildChannel(parent.guildId, thread, botId);
        (api.thread_metadata as Json).auto_archive_duration = Number(body.auto_archive_duration ?? 4320);
        channels.set(thread.id, { api, guildId: parent.guildId });
        createdThreads.push(thread);
        if (latestSession) dispatch(latestSession, "THREAD_CREATE", { ...api, newly_created: true });
        return { status: 201, body: api };
      },
    },
    { method: "POST", pattern: /^\/channels\/(\d+)\/typing$/, handle: ([, channelId]) => (channels.has(channelId!) ? { status: 204 } : apiError(404, 10003)) },
    {
      method: "PUT",
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/,
      handle: ([, , messageId]) => (storedMessages.has(messageId!) ? { status: 204 } : apiError(404, 10008)),
    },
    {
      method: "DELETE",
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/,
      handle: ([, , messageId]) => (storedMessages.has(messageId!) ? { status: 204 } : apiError(404, 10008)),
    },
  ];

  routes.push(
    {
      method: "PUT",
      pattern: /^\/applications\/(\d+)\/commands$/,
      handle: ([, applicationId], body) => {
        if (applicationId !== botId) return apiError(403, 50001);
        const list = body as unknown as Json[];
        if (!Array.isArray(list)) return apiError(400, 50035, "Invalid Form Body");
        registeredCommands = list;
        return { status: 200, body: list.map((command) => ({ ...command, id: snowflake(), application_id: botId, type: 1, version: snowflake() })) };
      },
    },
    {
      method: "POST",
      pattern: /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
      handle: ([, interactionId, interactionToken], body) => {
        const interaction = interactions.get(interactionId!);
        if (!interaction || interaction.token !== interactionToken) return apiError(404, 10062, "Unknown interaction");
        if (interaction.replies.some((r) => r.kind === "callback")) return apiError(400, 40060, "Interaction has already been acknowledged.");
        const data = (body.data ?? {}) as Json;
        // 7 UPDATE_MESSAGE: the answer is an edit of the message the pressed component is under.
        const updated = Number(body.type) === 7 && interaction.messageId ? storedMessages.get(interaction.messageId) : undefined;
        if (updated && typeof data.content === "string") updated.content = data.content;
        if (updated && data.components !== undefined) updated.components = data.components;
        interaction.replies.push({
          kind: "callback",
          type: Number(body.type),
          ...(typeof data.content === "string" ? { content: data.content } : {}),
          flags: Number(data.flags ?? 0),
        });
        return { status: 204 };
      },
    },
    {
      method: "PATCH",
      pattern: /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/,
      handle: ([, , interactionToken], body) => {
        const interaction = interactionByToken(interactionToken!);
        if (!interaction?.replies.some((r) => r.kind === "callback")) return apiError(404, 10008);
        const content = typeof body.content === "string" ? body.content : "";
        interaction.replies.push({ kind: "original", content });
        return { status: 200, body: buildMessage({ id: snowflake(), channel: interaction.channel, author: botUser, content }) };
      },
    },
    {
      method: "POST",
      pattern: /^\/webhooks\/(\d+)\/([^/]+)$/,
      handle: ([, , interactionToken], body) => {
        const interaction = interactionByToken(interactionToken!);
        if (!interaction?.replies.some((r) => r.kind === "callback")) return apiError(404, 10015, "Unknown Webhook");
        const content = typeof body.content === "string" ? body.content : "";
        interaction.replies.push({ kind: "followup", content, flags: Number(body.flags ?? 0) });
        return { status: 200, body: buildMessage({ id: snowflake(), channel: interaction.channel, author: botUser, content }) };
      },
    },
  );

  const takeFailure = (method: string, path: string): FailureSpec | undefined => {
    const index = failures.findIndex(({ route }) => routeMatches(route, method, path));
    return index < 0 ? undefined : failures.splice(index, 1)[0]!.failure;
  };

  const handleRest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    const rawPath = new URL(req.url ?? "/", "http://fake").pathname;
    const attachment = method === "GET" ? attachmentFiles.get(rawPath) : undefined;
    if (attachment) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": attachment.length }).end(attachment);
      return;
    }
    const path = decodeURIComponent(rawPath.startsWith(API_PREFIX) ? rawPath.slice(API_PREFIX.length) : rawPath);
    const multipart = (req.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data");
    const text = multipart ? "" : await readBody(req);
    let body: Json = {};
    let files: UploadedFile[] = [];
    try {
      if (multipart) {
        // discord.js sends the message as `payload_json` and each file as `files[<n>]`.
        const form = await parseMultipart(req);
        body = (form.payload_json ?? {}) as Json;
        files = Object.values(form).filter((value): value is UploadedFile => value instanceof UploadedFile);
      } else body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      return respond(res, apiError(400, 50109, "The request body contains invalid JSON."));
    }
    sent.push({ method, path, body: text ? body : undefined });
    // Interaction callbacks and webhook follow-ups authenticate with the interaction token in the path, not the bot token.
    const tokenInPath = /^\/(interactions|webhooks)\//.test(path);
    if (!tokenInPath && req.headers.authorization !== `Bot ${token}`) return respond(res, { status: 401, body: { message: "401: Unauthorized", code: 0 } });
    const hang = hangs.findIndex((route) => routeMatches(route, method, path));
    if (hang >= 0) {
      hangs.splice(hang, 1);
      hungRequests++;
      await new Promise<void>((resolve) => held.push(resolve));
      // A held request whose client went away meanwhile is answered to no one: it takes no failure armed for a later request.
      if (req.socket.destroyed) return;
    }
    const failure = takeFailure(method, path);
    if (failure) return respondFailure(res, failure);
    currentFiles = files;
    for (const route of routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (match && rawPath.startsWith(API_PREFIX)) return respond(res, route.handle([...match], body));
    }
    unhandledRoutes.push(`${method} ${path}`);
    respond(res, { status: 404, body: { message: "404: Not Found", code: 0 } });
  };

  // ---- Gateway ----------------------------------------------------------------------------

  const onGatewayPayload = (socket: WebSocket, raw: RawData): void => {
    let payload: { op?: number; d?: Json };
    try {
      payload = JSON.parse(raw.toString()) as { op?: number; d?: Json };
    } catch {
      socket.close(4002, "Error while decoding payload.");
      return;
    }
    const d = payload.d ?? {};
    if (payload.op === 1) {
      socket.send(JSON.stringify({ op: 11 }));
    } else if (payload.op === 2) {
      if (d.token !== token) return socket.close(4004, "Authentication failed.");
      counters.identifies++;
      counters.lastIntents = Number(d.intents);
      counters.lastPresence = d.presence;
      const session: GatewaySession = { id: snowflake(), intents: Number(d.intents), seq: 0, log: [], socket };
      sessions.set(session.id, session);
      latestSession = session;
      dispatch(session, "READY", {
        v: 10,
        user: botUser,
        guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
        session_id: session.id,
        resume_gateway_url: gatewayUrl,
        application: { id: botId, flags: 0 },
        shard: [0, 1],
      });
      for (const guild of guilds) dispatch(session, "GUILD_CREATE", apiGuild(guild, botUser));
    } else if (payload.op === 6) {
      const session = sessions.get(String(d.session_id));
      if (!session || d.token !== token) return void socket.send(JSON.stringify({ op: 9, d: false }));
      counters.resumes++;
      session.socket = socket;
      for (const entry of session.log) if (entry.s > Number(d.seq)) socket.send(JSON.stringify(entry));
      dispatch(session, "RESUMED", {});
    }
  };

  const server = createServer((req, res) => {
    req.on("error", () => {});
    res.on("error", () => {});
    handleRest(req, res).catch((err: unknown) => {
      if (!res.headersSent) respond(res, { status: 500, body: { message: `fake discord error: ${String(err)}`, code: 0 } });
    });
  });
  const connections = trackConnections(server);
  const wss = new WebSocketServer({ server });
  wss.on("connection", (socket, req) => {
    counters.connections++;
    socket.on("error", () => {});
    const query = new URL(req.url ?? "/", "ws://fake").searchParams;
    if (query.get("v") !== "10" || query.get("encoding") !== "json" || query.has("compress")) {
      unhandledRoutes.push(`WS ${req.url}`);
      socket.close(4012, "The fake speaks v10 JSON without compression only.");
      return;
    }
    socket.on("close", () => {
      for (const session of sessions.values()) if (session.socket === socket) session.socket = null;
    });
    // A stalled gateway keeps the socket open and silent: no HELLO, no answers.
    if (stalled) return;
    socket.on("message", (raw) => onGatewayPayload(socket, raw));
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: heartbeatIntervalMs } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const gatewayUrl = `ws://127.0.0.1:${port}`;

  const buildMessage = (input: {
    id: string;
    channel: ChannelRecord;
    author: Json;
    content: string;
    flags?: number;
    referenced?: FakeApiMessage;
    mentions?: Json[];
    mentionRoleIds?: string[];
    memberRoles?: string[];
    attachments?: string[];
  }): FakeApiMessage => {
    const { channel, referenced } = input;
    const guildId = channel.guildId;
    const timestamp = new Date(Number((BigInt(input.id) >> 22n) + DISCORD_EPOCH)).toISOString();
    const message: FakeApiMessage = {
      id: input.id,
      channel_id: String(channel.api.id),
      channel_type: channel.api.type,
      author: input.author,
      content: input.content,
      timestamp,
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: input.mentions ?? [],
      mention_roles: input.mentionRoleIds ?? [],
      attachments: (input.attachments ?? []).map((filename) => ({
        id: snowflake(),
        filename,
        size: 1,
        url: `https://cdn.fake/${filename}`,
        proxy_url: `https://cdn.fake/${filename}`,
      })),
      embeds: [],
      pinned: false,
      type: referenced ? 19 : 0,
      flags: input.flags ?? 0,
    };
    if (guildId) {
      message.guild_id = guildId;
      message.member = { roles: input.memberRoles ?? [], joined_at: timestamp, deaf: false, mute: false, nick: null, flags: 0 };
    }
    if (referenced) {
      message.message_reference = { type: 0, message_id: referenced.id, channel_id: referenced.channel_id, ...(guildId && { guild_id: guildId }) };
      const { referenced_message: _nested, ...shallow } = referenced;
      message.referenced_message = shallow;
    }
    return message;
  };

  return {
    restUrl: `http://127.0.0.1:${port}/api`,
    gatewayUrl,
    token,
    botId,
    sent,
    unhandledRoutes,
    get connectionCount() {
      return counters.connections;
    },
    get identifyCount() {
      return counters.identifies;
    },
    get resumeCount() {
      return counters.resumes;
    },
    get lastIdentifyIntents() {
      return counters.lastIntents;
    },
    get lastIdentifyPresence() {
      return counters.lastPresence;
    },
    pushMessage(input) {
      if (!latestSession) throw new Error("fake discord: no gateway session yet (wait until identifyCount > 0)");
      const author = apiUser(input.authorId, input.authorName ?? `user${input.authorId}`, input.authorIsBot ?? false);
      users.set(input.authorId, author);
      let channel = channels.get(input.channelId);
      if (!channel && input.guildId) throw new Error(`fake discord: guild channel ${input.channelId} is not configured`);
      channel ??= dmChannelWith(author, input.channelId);
      const referenced = input.referencedMessageId === undefined ? undefined : storedMessages.get(input.referencedMessageId);
      if (input.referencedMessageId !== undefined && !referenced) throw new Error(`fake discord: unknown referenced message ${input.referencedMessageId}`);
      const message = buildMessage({
        id: input.id ?? snowflake(),
        channel,
        author,
        content: input.content,
        referenced,
        mentions: [...(input.mentionsBot ? [botUser] : []), ...(input.mentionUserIds ?? []).map((id) => users.get(id) ?? apiUser(id, `user${id}`, false))],
        mentionRoleIds: input.mentionRoleIds,
        memberRoles: input.memberRoles,
        attachments: input.attachments,
      });
      for (const file of input.files ?? []) {
        const id = snowflake();
        const urlPath = `/attachments/${id}/${file.filename}`;
        attachmentFiles.set(urlPath, file.bytes);
        const url = `http://127.0.0.1:${port}${urlPath}`;
        (message.attachments as Json[]).push({ id, filename: file.filename, size: file.bytes.length, content_type: file.contentType, url, proxy_url: url });
      }
      storeAndDispatch(message);
      return message;
    },
    pushReaction(input) {
      const session = latestSession;
      if (!session) throw new Error("fake discord: no gateway session yet (wait until identifyCount > 0)");
      const message = storedMessages.get(input.messageId);
      if (!message || message.channel_id !== input.channelId) throw new Error(`fake discord: no message ${input.messageId} in channel ${input.channelId}`);
      const channel = channels.get(input.channelId)!;
      const user = users.get(input.userId) ?? apiUser(input.userId, input.userName ?? `user${input.userId}`, false);
      users.set(input.userId, user);
      const { guildId } = channel;
      if ((session.intents & (guildId ? GUILD_MESSAGE_REACTIONS : DIRECT_MESSAGE_REACTIONS)) === 0) return false;
      const emoji = typeof input.emoji === "string" ? { id: null, name: input.emoji } : { id: input.emoji.id, name: input.emoji.name, animated: false };
      const payload: Json = {
        type: 0,
        user_id: input.userId,
        channel_id: input.channelId,
        message_id: input.messageId,
        emoji,
        burst: false,
        burst_colors: [],
      };
      if (input.removed) {
        if (guildId) payload.guild_id = guildId;
        dispatch(session, "MESSAGE_REACTION_REMOVE", payload);
        return true;
      }
      if (!input.withoutMessageAuthor) payload.message_author_id = (message.author as Json).id;
      if (guildId) {
        payload.guild_id = guildId;
        payload.member = { user, roles: input.memberRoles ?? [], nick: input.nick ?? null, joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 };
      }
      dispatch(session, "MESSAGE_REACTION_ADD", payload);
      return true;
    },
    pushButton(input) {
      if (!latestSession) throw new Error("fake discord: no gateway session yet (wait until identifyCount > 0)");
      const message = storedMessages.get(input.messageId);
      if (!message || message.channel_id !== input.channelId) throw new Error(`fake discord: no message ${input.messageId} in channel ${input.channelId}`);
      const channel = channels.get(input.channelId);
      if (!channel) throw new Error(`fake discord: channel ${input.channelId} is not known`);
      const user = users.get(input.userId) ?? apiUser(input.userId, input.userName ?? `user${input.userId}`, false);
      users.set(input.userId, user);
      return dispatchInteraction(latestSession, { type: 3, channel, user, memberRoles: [], message, data: { custom_id: input.customId, component_type: 2 } });
    },
    storedMessage: (id) => storedMessages.get(id),
    pushCommand(input) {
      if (!latestSession) throw new Error("fake discord: no gateway session yet (wait until identifyCount > 0)");
      const user = apiUser(input.userId, input.userName ?? `user${input.userId}`, false);
      users.set(input.userId, user);
      let channel = channels.get(input.channelId);
      if (!channel && input.guildId) throw new Error(`fake discord: guild channel ${input.channelId} is not configured`);
      channel ??= dmChannelWith(user, input.channelId);
      const registered = registeredCommands.find((c) => c.name === input.name);
      if (!registered) throw new Error(`fake discord: the bot registered no command "${input.name}"`);
      return dispatchInteraction(latestSession, {
        type: 2,
        channel,
        user,
        memberRoles: input.memberRoles ?? [],
        data: {
          id: snowflake(),
          name: input.name,
          type: 1,
          ...(input.args !== undefined ? { options: [{ name: "args", type: 3, value: input.args }] } : {}),
        },
      });
    },
    registeredCommands: () => [...registeredCommands],
    interactionReplies: (id) => [...(interactions.get(id)?.replies ?? [])],
    uploads,
    messages: (channelId) => posted.filter((m) => channelId === undefined || m.channelId === channelId),
    deletedMessageIds,
    createdThreads: () => [...createdThreads],
    failNext(route, failure) {
      failures.push({ route, failure });
    },
    async dropConnection({ resumable = true } = {}) {
      const session = latestSession;
      const socket = session?.socket;
      if (!session || !socket) throw new Error("fake discord: no live gateway connection to drop");
      // Detach first: from here on every dispatch waits in the log for the RESUME.
      session.socket = null;
      if (!resumable) sessions.delete(session.id);
      await new Promise<void>((resolve) => {
        socket.once("close", () => resolve());
        socket.close(resumable ? 4000 : 1000, "fake discord: connection dropped");
      });
    },
    stallGateway(on) {
      stalled = on;
    },
    hangNext(route) {
      hangs.push(route);
    },
    get hungRequests() {
      return hungRequests;
    },
    release() {
      for (const answer of held.splice(0)) answer();
    },
    clearArmed() {
      failures.length = 0;
      hangs.length = 0;
      stalled = false;
    },
    get openConnections() {
      return connections.size;
    },
    dropConnections() {
      connections.destroyAll();
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      connections.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `predicate` every 10 ms; rejects after `timeoutMs` naming what it waited for. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function apiUser(id: string, name: string, bot: boolean): Json {
  return { id, username: name, discriminator: "0", global_name: name, avatar: null, bot };
}

function apiGuildChannel(guildId: string, channel: FakeGuildChannel, botId: string): Json {
  const base = { id: channel.id, type: channel.type, name: channel.name, guild_id: guildId, parent_id: channel.parentId ?? null, rate_limit_per_user: 0, flags: 0 };
  if (!isThread(channel.type)) return { ...base, position: 0, permission_overwrites: [], nsfw: false, topic: null, last_message_id: null };
  return {
    ...base,
    owner_id: botId,
    message_count: 0,
    member_count: 1,
    thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
  };
}

function apiGuild(guild: FakeGuild, bot: Json): Json {
  const roles = [{ id: guild.id, name: "@everyone" }, ...(guild.roles ?? [])].map((role: FakeRole, position) => ({
    id: role.id,
    name: role.name,
    color: 0,
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: "0",
    managed: role.botId !== undefined,
    mentionable: true,
    flags: 0,
    ...(role.botId !== undefined && { tags: { bot_id: role.botId } }),
  }));
  const botRoles = (guild.roles ?? []).filter((role) => role.botId === bot.id).map((role) => role.id);
  const joinedAt = new Date().toISOString();
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: guild.id,
    unavailable: false,
    member_count: 2,
    large: false,
    joined_at: joinedAt,
    features: [],
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    premium_tier: 0,
    system_channel_flags: 0,
    preferred_locale: "en-US",
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    roles,
    channels: guild.channels.filter((c) => !isThread(c.type)).map((c) => apiGuildChannel(guild.id, c, String(bot.id))),
    threads: guild.channels.filter((c) => isThread(c.type)).map((c) => apiGuildChannel(guild.id, c, String(bot.id))),
    members: [{ user: bot, roles: botRoles, joined_at: joinedAt, deaf: false, mute: false, nick: null, flags: 0 }],
    presences: [],
    voice_states: [],
    emojis: [],
    stickers: [],
    stage_instances: [],
    guild_scheduled_events: [],
  };
}

function isThread(type: number): boolean {
  return type === 10 || type === 11 || type === 12;
}

function apiError(status: number, code: number, message = ERROR_MESSAGES[code] ?? `error ${code}`): RouteResult {
  return { status, body: { message, code } };
}

function respondFailure(res: ServerResponse, failure: FailureSpec): void {
  if (failure.status === 429) {
    const retryAfter = failure.retryAfter ?? 1;
    res.setHeader("Retry-After", String(retryAfter));
    res.setHeader("X-RateLimit-Scope", "user");
    return respond(res, { status: 429, body: { message: failure.message ?? "You are being rate limited.", retry_after: retryAfter, global: false } });
  }
  const code = failure.code ?? 0;
  respond(res, { status: failure.status, body: { message: failure.message ?? ERROR_MESSAGES[code] ?? `${failure.status}: fake failure`, code } });
}

function respond(res: ServerResponse, { status, body }: RouteResult): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

function routeMatches(route: string | RegExp, method: string, path: string): boolean {
  return route instanceof RegExp ? route.test(`${method} ${path}`) : route === `${method} ${path}` || route === path;
}
