import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { readBody } from "./model-server/http-io.js";
import { trackConnections } from "./open-connections.js";
import { FakeSlackFileUploads, type FakeSlackUpload } from "./slack-file-uploads.js";

/**
 * A fake Slack for tests: the Web API at `/api/<method>` (form-encoded or JSON bodies, token in
 * `Authorization: Bearer` or a `token` field) and a Socket Mode WebSocket, spoken well enough that
 * the real @slack/bolt, @slack/web-api and @slack/socket-mode run against it unchanged.
 *
 * Socket Mode: `apps.connections.open` (app token only) hands out `ws://…/socket`; each new socket
 * gets `hello`; `pushMessage` / `pushReaction` / `pushEvent` deliver `events_api` envelopes (queued
 * until a socket is open) and every `{envelope_id}` the client sends back is recorded in `acks`
 * with its arrival time. HTTP Events tests post `eventCallback(event)` (e.g. of `reactionEvent`)
 * themselves, signed with `signEvent`.
 *
 * Reactions: `reaction_added` (`reaction_removed` with `removed`) names the reacted message's author (`item_user`) as Slack does when
 * the fake knows it: a message pushed with `pushMessage` is its user's, one the bot posted with
 * `chat.postMessage` is the bot user's. `lastPostedTs(channel)` is the ts of the bot's last post there.
 *
 * Canned answers: `auth.test` names the bot (`user: "openclaw"`, `botUserId`, `botId`, `teamId`);
 * `conversations.open` for `U123` answers `D123`; `conversations.info` knows the channel types
 * seen in `pushMessage` (else guesses from the id's first letter) and names `U123` as `D123`'s user; `users.info` for `U1` answers
 * display name `user-u1`, handle `u1` (`is_bot` for the bot user and `otherBotUserIds`). A wrong
 * token gets `invalid_auth`, none `not_authed`.
 *
 * Threads: `conversations.replies` answers from the messages the fake knows in that channel — the
 * root (`ts`) and those with its `thread_ts`, pushed or posted by the bot — oldest first, honouring
 * `latest`/`oldest`/`inclusive`, `limit` and `cursor`. A message pushed with `deliver: false` is
 * known there but never sent as an event (written before the bot joined).
 *
 * Files the app sends go through Slack's external upload flow (see `FakeSlackFileUploads`), with
 * the upload URL on this fake; `uploads` records each shared file with its bytes.
 */
export interface FakeSlack {
  /** Give this to the plugin as `slackApiUrl`; it ends with `/api/`. */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly botUserId: string;
  /** The bot's `bot_id` (what Slack stamps on messages the bot posts). */
  readonly botId: string;
  readonly teamId: string;
  /** Deliver a `message` (or, with `appMention`, an `app_mention`) event. */
  pushMessage(message: FakeSlackMessage): { envelopeId: string; ts: string };
  /** Deliver any event object as-is (bot messages, subtypes, files …). */
  pushEvent(event: Record<string, unknown>): { envelopeId: string };
  /** A `reaction_added` event, as Slack builds it (see `FakeSlackReaction`). */
  reactionEvent(reaction: FakeSlackReaction): Record<string, unknown>;
  /** Deliver a `reaction_added` event over Socket Mode. */
  pushReaction(reaction: FakeSlackReaction): { envelopeId: string };
  /** The Events API body (`event_callback`) carrying `event`, as Slack POSTs it to a Request URL. */
  eventCallback(event: Record<string, unknown>): string;
  /** The `ts` of the bot's last `chat.postMessage` in `channel`. */
  lastPostedTs(channel: string): string | undefined;
  /**
   * A user ran a slash command: its form fields (what Slack POSTs to a Request URL), with a
   * `response_url` on this fake. `deliverSocket` sends them as a `slash_commands` envelope.
   */
  slashCommand(input: FakeSlashCommand): { fields: Record<string, string>; envelopeId: string; deliverSocket(): void };
  /**
   * A user pressed the button whose value is `value` under the bot's message `messageTs`: a
   * `block_actions` envelope over Socket Mode, as Slack sends it, with a `response_url` on this fake.
   */
  pushButtonPress(input: FakeButtonPress): { triggerId: string; envelopeId: string };
  /** What the app POSTed to a slash command's or a button press's `response_url`, by its `trigger_id`. */
  responses(triggerId: string): Array<{ text: string; response_type?: string }>;
  /** A file users can share: the file object to put in a message event's `files`; `url_private_download` serves the bytes to the bot token only. */
  addFile(bytes: Buffer, name: string, mimetype: string): Record<string, unknown>;
  /** Files shared through `files.getUploadURLExternal` → upload URL → `files.completeUploadExternal`, in order. */
  readonly uploads: FakeSlackUpload[];
  /** envelope id → `Date.now()` when its ack arrived. */
  readonly acks: Map<string, number>;
  /** Every `chat.postMessage`, in order. */
  readonly posted: Array<{ channel: string; text: string; thread_ts?: string; unfurl_links?: boolean; unfurl_media?: boolean }>;
  /** The `ts` Slack gave each `posted` message, same order (a thread's root ts is its `thread_ts`). */
  readonly postedTs: string[];
  /** `ts` of the messages the bot deleted (`chat.delete`), in order. */
  readonly deletedTs: string[];
  /** Every Web API call, in order, body without the token. */
  readonly calls: Array<{ method: string; body: Record<string, unknown> }>;
  /** Methods the fake does not know (they answer `unknown_method`). */
  readonly unknownMethods: string[];
  /** Sockets accepted so far (a reconnect makes it grow). */
  readonly socketConnections: number;
  /** Socket Mode sockets open now. */
  readonly openSocketCount: number;
  /** The next call of `method` fails: `ratelimited` as HTTP 429 + Retry-After, other errors as `{ok:false}`, `status` as a bare HTTP error. */
  failNext(method: string, failure: FakeSlackFailure): void;
  /** The next call of `method` is held unanswered until `release()`. */
  hangNext(method: string): void;
  /** Answers every held call now, as if Slack had only been slow; one whose client went away is dropped. */
  release(): void;
  /** While on, new Socket Mode sockets open but never get `hello`. */
  stallSockets(on: boolean): void;
  /** Forgets every `failNext` and `hangNext` not met yet and ends `stallSockets`; held calls stay held. */
  clearArmed(): void;
  /** Slack's polite reconnect request: `{type:"disconnect", reason}` on every open socket. */
  sendDisconnect(reason?: string): void;
  /** Kill every open socket without a close handshake. */
  dropSocket(): void;
  /** Headers for a signed HTTP Events request carrying `body`. */
  signEvent(body: string | Buffer, signingSecret: string, tsSeconds?: number): Record<string, string>;
  /** Resolves once `predicate` holds (polled every 10 ms); rejects after `ms`. */
  waitFor(predicate: () => boolean, ms?: number): Promise<void>;
  /** TCP connections open now (Web API calls and Socket Mode sockets). */
  readonly openConnections: number;
  /**
   * Destroys every open connection, keeping the listener and what was recorded. Call it once the
   * clients are gone (a killed gateway): a call one sent just before, not yet read, is then never recorded.
   */
  dropConnections(): void;
  close(): Promise<void>;
}

export interface FakeSlackMessage {
  channel: string;
  channelType?: "im" | "channel" | "mpim" | "group";
  user: string;
  text: string;
  ts?: string;
  threadTs?: string;
  appMention?: boolean;
  /** `false`: known to `conversations.replies` only, never delivered as an event. */
  deliver?: boolean;
}

/** A message the fake knows, as `conversations.replies` answers it. */
interface KnownMessage {
  channel: string;
  ts: string;
  user: string;
  text: string;
  thread_ts?: string;
  bot_id?: string;
}

export interface FakeSlackReaction {
  /** The channel of the reacted message. */
  channel: string;
  /** The reacted message's ts. */
  ts: string;
  /** Who reacted. */
  user: string;
  /** Shortcode without colons. */
  reaction: string;
  /** A `reaction_removed` event: the user took the reaction back. */
  removed?: true;
  /** `item_user`: default the author the fake knows (omitted when it knows none); `null` omits it. */
  itemUser?: string | null;
  /** Default `message`. */
  itemType?: "message" | "file" | "file_comment";
}

export interface FakeSlashCommand {
  command: string;
  text: string;
  user: string;
  channel: string;
}

export interface FakeButtonPress {
  channel: string;
  user: string;
  messageTs: string;
  /** The pressed button's `value` (and, when given, its `action_id`). */
  value: string;
  actionId?: string;
}

export type FakeSlackFailure = { error: "ratelimited"; retryAfter: number } | { error: string } | { status: number };

export interface FakeSlackOptions {
  botToken?: string;
  /** More bot tokens of the same app (its installs in other workspaces), accepted wherever `botToken` is. */
  otherBotTokens?: string[];
  appToken?: string;
  botUserId?: string;
  teamId?: string;
  /** Users `users.info` names as bots (`is_bot`), besides the app's own bot user. */
  otherBotUserIds?: string[];
}

const BOT_METHODS = new Set([
  "auth.test",
  "chat.postMessage",
  "chat.update",
  "chat.delete",
  "reactions.add",
  "reactions.remove",
  "conversations.open",
  "conversations.info",
  "users.info",
  "conversations.replies",
  "files.getUploadURLExternal",
  "files.completeUploadExternal",
]);
const CHANNEL_TYPE_BY_PREFIX: Record<string, string> = { D: "im", C: "channel", G: "group" };

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botToken = options.botToken ?? "xoxb-fake-bot-token";
  const appToken = options.appToken ?? "xapp-1-fake-app-token";
  const botUserId = options.botUserId ?? "U0FAKEBOT";
  const teamId = options.teamId ?? "T0FAKE";
  const botId = "B0FAKEBOT";
  const botTokens = new Set([botToken, ...(options.otherBotTokens ?? [])]);

  const acks = new Map<string, number>();
  const posted: FakeSlack["posted"] = [];
  const postedTs: string[] = [];
  const deletedTs: string[] = [];
  const calls: FakeSlack["calls"] = [];
  const unknownMethods: string[] = [];
  const failures = new Map<string, FakeSlackFailure[]>();
  const channelTypes = new Map<string, string>();
  /** `<channel>:<ts>` → the user who wrote that message (what `item_user` says). */
  const authors = new Map<string, string>();
  const known: KnownMessage[] = [];
  const botUserIds = new Set([botUserId, ...(options.otherBotUserIds ?? [])]);
  const pendingEnvelopes: string[] = [];
  const openSockets = new Set<WebSocket>();
  let socketConnections = 0;
  const hangs = new Map<string, number>();
  let stalled = false;
  const held: Array<() => void> = [];
  let tsCounter = 0;
  let eventCounter = 0;
  let triggerCounter = 0;
  const sharedFiles = new Map<string, Buffer>();
  const slashResponses = new Map<string, Array<{ text: string; response_type?: string }>>();

  // Slack ts values are "<seconds>.<6 digits>" and strictly increase within a channel.
  const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++tsCounter).padStart(6, "0")}`;
  const fileUploads = new FakeSlackFileUploads(() => `http://127.0.0.1:${port}`, nextTs);

  const wss = new WebSocketServer({ noServer: true });
  wss.on("connection", (socket) => {
    socketConnections += 1;
    openSockets.add(socket);
    socket.on("close", () => openSockets.delete(socket));
    if (stalled) return;
    socket.on("message", (data) => {
      const frame = parseJson(data.toString());
      if (frame && typeof frame.envelope_id === "string") acks.set(frame.envelope_id, Date.now());
    });
    socket.send(
      JSON.stringify({
        type: "hello",
        num_connections: openSockets.size,
        debug_info: { host: "fake-slack", approximate_connection_time: 18060 },
        connection_info: { app_id: "A0FAKEAPP" },
      }),
    );
    for (const envelope of pendingEnvelopes.splice(0)) socket.send(envelope);
  });

  const deliver = (envelope: string) => {
    const socket = [...openSockets].at(-1);
    if (socket) socket.send(envelope);
    else pendingEnvelopes.push(envelope);
  };

  const callbackPayload = (event: Record<string, unknown>) => {
    eventCounter += 1;
    return {
      token: "fake-verification-token",
      team_id: teamId,
      api_app_id: "A0FAKEAPP",
      type: "event_callback",
      event,
      event_id: `Ev${String(eventCounter).padStart(8, "0")}`,
      event_time: Math.floor(Date.now() / 1000),
    };
  };

  const pushEvent = (event: Record<string, unknown>) => {
    const envelopeId = randomUUID();
    const payload = callbackPayload(event);
    deliver(JSON.stringify({ envelope_id: envelopeId, type: "events_api", accepts_response_payload: false, retry_attempt: 0, retry_reason: "", payload }));
    return { envelopeId };
  };

  const reactionEvent = (reaction: FakeSlackReaction): Record<string, unknown> => {
    const itemUser = reaction.itemUser === undefined ? authors.get(`${reaction.channel}:${reaction.ts}`) : reaction.itemUser;
    const eventTs = nextTs();
    return {
      type: reaction.removed ? "reaction_removed" : "reaction_added",
      user: reaction.user,
      reaction: reaction.reaction,
      ...(itemUser ? { item_user: itemUser } : {}),
      item: { type: reaction.itemType ?? "message", channel: reaction.channel, ts: reaction.ts },
      event_ts: eventTs,
    };
  };

  const pushMessage = (message: FakeSlackMessage) => {
    const ts = message.ts ?? nextTs();
    if (message.channelType) channelTypes.set(message.channel, message.channelType);
    const event: Record<string, unknown> = {
      type: message.appMention ? "app_mention" : "message",
      channel: message.channel,
      user: message.user,
      text: message.text,
      ts,
      event_ts: ts,
      team: teamId,
    };
    // Like Slack: `channel_type` rides on message events only, never on app_mention.
    if (!message.appMention) event.channel_type = message.channelType ?? CHANNEL_TYPE_BY_PREFIX[message.channel[0] ?? ""] ?? "channel";
    if (message.threadTs) event.thread_ts = message.threadTs;
    authors.set(`${message.channel}:${ts}`, message.user);
    known.push(pickDefined({ channel: message.channel, ts, user: message.user, text: message.text, thread_ts: message.threadTs }));
    if (message.deliver === false) return { envelopeId: "", ts };
    return { ...pushEvent(event), ts };
  };

  const replies = (body: Record<string, unknown>): Record<string, unknown> => {
    const channel = String(body.channel);
    const root = String(body.ts);
    const inclusive = body.inclusive === true || body.inclusive === "true" || body.inclusive === "1";
    const latest = optionalString(body.latest);
    const oldest = optionalString(body.oldest);
    const inThread = known
      .filter((m) => m.channel === channel && (m.ts === root || m.thread_ts === root))
      .filter((m) => latest === undefined || compareTs(m.ts, latest) < 0 || (inclusive && compareTs(m.ts, latest) === 0))
      .filter((m) => oldest === undefined || compareTs(m.ts, oldest) > 0 || (inclusive && compareTs(m.ts, oldest) === 0))
      .sort((a, b) => compareTs(a.ts, b.ts));
    if (!known.some((m) => m.channel === channel && m.ts === root)) return { ok: false, error: "thread_not_found" };
    const start = body.cursor === undefined ? 0 : Number(body.cursor);
    const limit = body.limit === undefined ? 1000 : Number(body.limit);
    const page = inThread.slice(start, start + limit);
    const more = start + limit < inThread.length;
    return {
      ok: true,
      messages: page.map((m) => ({ type: "message", ...m, ...(m.ts === root || m.thread_ts ? { thread_ts: m.thread_ts ?? root } : {}) })),
      has_more: more,
      response_metadata: { next_cursor: more ? String(start + limit) : "" },
    };
  };

  const answer = (method: string, body: Record<string, unknown>, port: number): Record<string, unknown> => {
    switch (method) {
      case "auth.test":
        return { ok: true, url: "https://fake.slack.com/", team: "Fake Team", user: "openclaw", team_id: teamId, user_id: botUserId, bot_id: botId, is_enterprise_install: false };
      case "apps.connections.open":
        return { ok: true, url: `ws://127.0.0.1:${port}/socket?ticket=${randomUUID()}&app_id=A0FAKEAPP` };
      case "chat.postMessage": {
        const ts = nextTs();
        posted.push(
          pickDefined({
            channel: String(body.channel),
            text: String(body.text ?? ""),
            thread_ts: optionalString(body.thread_ts),
            unfurl_links: optionalBoolean(body.unfurl_links),
            unfurl_media: optionalBoolean(body.unfurl_media),
          }),
        );
        postedTs.push(ts);
        authors.set(`${String(body.channel)}:${ts}`, botUserId);
        known.push(pickDefined({ channel: String(body.channel), ts, user: botUserId, text: String(body.text ?? ""), thread_ts: optionalString(body.thread_ts), bot_id: botId }));
        return { ok: true, channel: body.channel, ts, message: { type: "message", text: body.text, user: botUserId, bot_id: botId, ts } };
      }
      case "chat.update":
        return { ok: true, channel: body.channel, ts: body.ts, text: body.text };
      case "chat.delete":
        if (!postedTs.includes(String(body.ts)) || deletedTs.includes(String(body.ts))) return { ok: false, error: "message_not_found" };
        deletedTs.push(String(body.ts));
        return { ok: true, channel: body.channel, ts: body.ts };
      case "reactions.add":
      case "reactions.remove":
        return { ok: true };
      case "files.getUploadURLExternal":
        return fileUploads.getUploadUrl(body);
      case "files.completeUploadExternal":
        return fileUploads.complete(body);
      case "conversations.open":
        return { ok: true, channel: { id: `D${String(body.users).replace(/^[UW]/, "")}` } };
      case "conversations.info": {
        const id = String(body.channel);
        const type = channelTypes.get(id) ?? CHANNEL_TYPE_BY_PREFIX[id[0] ?? ""] ?? "channel";
        return {
          ok: true,
          channel: {
            id,
            is_im: type === "im",
            is_mpim: type === "mpim",
            is_channel: type === "channel",
            is_group: type === "group",
            is_private: type !== "channel",
            // A DM's user, as `conversations.open` pairs them (`D123` is `U123`'s).
            ...(type === "im" ? { user: `U${id.slice(1)}` } : {}),
          },
        };
      }
      case "conversations.replies":
        return replies(body);
      case "users.info": {
        const id = String(body.user);
        return {
          ok: true,
          user: { id, name: id.toLowerCase(), real_name: `User ${id}`, is_bot: botUserIds.has(id), profile: { display_name: `user-${id.toLowerCase()}`, real_name: `User ${id}` } },
        };
      }
      default:
        unknownMethods.push(method);
        console.warn(`fake slack: unknown method ${method}`);
        return { ok: false, error: "unknown_method" };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const fileBytes = req.method === "GET" ? sharedFiles.get(path) : undefined;
    if (fileBytes) {
      if (bearerToken(req.headers.authorization) !== botToken) return sendJson(res, 403, { ok: false, error: "not_authed" });
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": fileBytes.length }).end(fileBytes);
      return;
    }
    if (path.startsWith(FakeSlackFileUploads.uploadPath) && req.method === "POST") {
      const received = await fileUploads.receive(req, path.slice(FakeSlackFileUploads.uploadPath.length));
      res.writeHead(received.status, { "content-type": "text/plain" }).end(received.text);
      return;
    }
    const responseUrl = /^\/commands\/([^/]+)$/.exec(path);
    if (responseUrl && req.method === "POST") {
      const list = slashResponses.get(decodeURIComponent(responseUrl[1]!));
      const body = parseJson(await readBody(req));
      if (!list || !body) return sendJson(res, 404, { ok: false, error: "expired_url" });
      list.push(pickDefined({ text: String(body.text ?? ""), response_type: optionalString(body.response_type) }));
      return sendJson(res, 200, { ok: true });
    }
    const method = path.startsWith("/api/") ? path.slice("/api/".length) : "";
    if (req.method !== "POST" || !method) {
      sendJson(res, 404, { ok: false, error: "not_found" });
      return;
    }
    const { token: bodyToken, ...body } = parseRequestBody(await readBody(req), req.headers["content-type"]);
    calls.push({ method, body });
    const holds = hangs.get(method) ?? 0;
    if (holds > 0) {
      hangs.set(method, holds - 1);
      await new Promise<void>((resolve) => held.push(resolve));
      // A held call whose client went away meanwhile is answered to no one: it takes no failure armed for a later call.
      if (req.socket.destroyed) return;
    }

    const failure = failures.get(method)?.shift();
    if (failure) {
      if ("status" in failure) sendJson(res, failure.status, { ok: false, error: "fake_http_error" });
      else if ("retryAfter" in failure) sendJson(res, 429, { ok: false, error: "ratelimited" }, { "retry-after": String(failure.retryAfter) });
      else sendJson(res, 200, { ok: false, error: failure.error });
      return;
    }

    const token = bearerToken(req.headers.authorization) ?? (typeof bodyToken === "string" ? bodyToken : undefined);
    const expected = method === "apps.connections.open" ? new Set([appToken]) : BOT_METHODS.has(method) ? botTokens : undefined;
    if (!token) sendJson(res, 200, { ok: false, error: "not_authed" });
    else if (expected !== undefined && !expected.has(token)) sendJson(res, 200, { ok: false, error: "invalid_auth" });
    else sendJson(res, 200, answer(method, body, port));
  };

  const server = createServer((req, res) => {
    req.on("error", () => {});
    res.on("error", () => {});
    handle(req, res, port).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: `fake_server_error: ${String(err)}` });
    });
  });
  const connections = trackConnections(server);
  server.on("upgrade", (req, socket, head) => {
    if ((req.url ?? "").startsWith("/socket")) wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    botToken,
    appToken,
    botUserId,
    botId,
    teamId,
    pushMessage,
    pushEvent,
    reactionEvent,
    pushReaction: (reaction) => pushEvent(reactionEvent(reaction)),
    eventCallback: (event) => JSON.stringify(callbackPayload(event)),
    lastPostedTs(channel) {
      for (let i = posted.length - 1; i >= 0; i--) if (posted[i]!.channel === channel) return postedTs[i];
      return undefined;
    },
    slashCommand(input) {
      const triggerId = `${++triggerCounter}.${Date.now()}.fake`;
      slashResponses.set(triggerId, []);
      const fields = {
        token: "fake-verification-token",
        team_id: teamId,
        team_domain: "fake",
        channel_id: input.channel,
        channel_name: input.channel.startsWith("D") ? "directmessage" : "general",
        user_id: input.user,
        user_name: input.user.toLowerCase(),
        command: input.command,
        text: input.text,
        api_app_id: "A0FAKEAPP",
        is_enterprise_install: "false",
        response_url: `http://127.0.0.1:${port}/commands/${encodeURIComponent(triggerId)}`,
        trigger_id: triggerId,
      };
      const envelopeId = randomUUID();
      const envelope = JSON.stringify({ envelope_id: envelopeId, type: "slash_commands", accepts_response_payload: true, payload: fields });
      return { fields, envelopeId, deliverSocket: () => deliver(envelope) };
    },
    pushButtonPress(input) {
      const triggerId = `${++triggerCounter}.${Date.now()}.fake`;
      slashResponses.set(triggerId, []);
      const original = known.find((m) => m.channel === input.channel && m.ts === input.messageTs);
      const payload = {
        type: "block_actions",
        user: { id: input.user, username: input.user.toLowerCase(), name: input.user.toLowerCase(), team_id: teamId },
        api_app_id: "A0FAKEAPP",
        token: "fake-verification-token",
        container: { type: "message", message_ts: input.messageTs, channel_id: input.channel, is_ephemeral: false },
        trigger_id: triggerId,
        team: { id: teamId, domain: "fake" },
        enterprise: null,
        is_enterprise_install: false,
        channel: { id: input.channel, name: input.channel.startsWith("D") ? "directmessage" : "general" },
        message: {
          type: "message",
          ts: input.messageTs,
          user: botUserId,
          bot_id: botId,
          text: original?.text ?? "",
          ...(original?.thread_ts ? { thread_ts: original.thread_ts } : {}),
        },
        response_url: `http://127.0.0.1:${port}/commands/${encodeURIComponent(triggerId)}`,
        actions: [
          {
            type: "button",
            action_id: input.actionId ?? "button",
            block_id: "buttons",
            text: { type: "plain_text", text: "button", emoji: true },
            value: input.value,
            action_ts: `${Date.now() / 1000}`,
          },
        ],
      };
      const envelopeId = randomUUID();
      deliver(JSON.stringify({ envelope_id: envelopeId, type: "interactive", accepts_response_payload: false, payload }));
      return { triggerId, envelopeId };
    },
    addFile(bytes, name, mimetype) {
      const id = `F${String(sharedFiles.size + 1).padStart(8, "0")}`;
      const filePath = `/files-pri/${teamId}-${id}/download/${encodeURIComponent(name)}`;
      sharedFiles.set(filePath, bytes);
      const url = `http://127.0.0.1:${port}${filePath}`;
      return { id, name, mimetype, size: bytes.length, url_private: url, url_private_download: url };
    },
    responses: (triggerId) => [...(slashResponses.get(triggerId) ?? [])],
    uploads: fileUploads.uploads,
    acks,
    posted,
    postedTs,
    deletedTs,
    calls,
    unknownMethods,
    get openSocketCount() {
      return openSockets.size;
    },
    get socketConnections() {
      return socketConnections;
    },
    failNext(method, failure) {
      failures.set(method, [...(failures.get(method) ?? []), failure]);
    },
    hangNext(method) {
      hangs.set(method, (hangs.get(method) ?? 0) + 1);
    },
    release() {
      for (const answer of held.splice(0)) answer();
    },
    stallSockets(on) {
      stalled = on;
    },
    clearArmed() {
      failures.clear();
      hangs.clear();
      stalled = false;
    },
    sendDisconnect(reason = "refresh_requested") {
      for (const socket of openSockets) socket.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake-slack" } }));
    },
    dropSocket() {
      for (const socket of openSockets) socket.terminate();
    },
    signEvent(body, signingSecret, tsSeconds = Math.floor(Date.now() / 1000)) {
      const signature = createHmac("sha256", signingSecret).update(`v0:${tsSeconds}:${body.toString()}`).digest("hex");
      return { "content-type": "application/json", "x-slack-request-timestamp": String(tsSeconds), "x-slack-signature": `v0=${signature}` };
    },
    async waitFor(predicate, ms = 3000) {
      const deadline = Date.now() + ms;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`fake slack: condition not met within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    get openConnections() {
      return connections.size;
    },
    dropConnections: () => connections.destroyAll(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of openSockets) socket.terminate();
        wss.close();
        connections.destroyAll();
        server.close(() => resolve());
      }),
  };
}

/** Slack ts values (`<seconds>.<micro>`) in time order, compared without float rounding. */
function compareTs(a: string, b: string): number {
  const [as = "0", af = ""] = a.split(".");
  const [bs = "0", bf = ""] = b.split(".");
  return Number(as) - Number(bs) || Number(af.padEnd(6, "0")) - Number(bf.padEnd(6, "0"));
}

function parseRequestBody(text: string, contentType: string | undefined): Record<string, unknown> {
  if (!text) return {};
  if (contentType?.startsWith("application/json")) return parseJson(text) ?? {};
  return Object.fromEntries(new URLSearchParams(text));
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1];
}

// Form bodies carry every value as a string: "true"/"false" for booleans.
function optionalBoolean(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  return value === true || value === "true";
}

function optionalString(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}

function pickDefined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}
