import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./model-server/http-io.js";
import { parseMultipart, UploadedFile } from "./multipart.js";
import { trackConnections } from "./open-connections.js";

/**
 * A fake Telegram Bot API: a real HTTP server on 127.0.0.1 answering `/bot<token>/<method>`,
 * so tests drive the real grammY client through its `apiRoot` option.
 *
 * Implemented methods: getMe, getUpdates (a real long poll), sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage,
 * sendChatAction, setMessageReaction, answerCallbackQuery, setWebhook, deleteWebhook,
 * setMyCommands, createForumTopic. Bodies may be JSON, form-encoded or a query string. Another
 * token → 401. A chat is a forum when named in `forumChatIds` or pushed a topic message
 * (`threadId`); `createForumTopic` elsewhere answers 400 "the chat is not a forum".
 *
 * Like Telegram, it checks `parse_mode: "HTML"` text (known tags, balanced, valid entities) and
 * answers 400 "can't parse entities" otherwise, and refuses texts over 4096 characters.
 *
 * Test controls:
 * - `pushUpdate(update)` queues an update (an `update_id` is assigned when missing) and returns
 *   its id. The same update may be pushed again: a re-pushed update is handed out once more
 *   even when its id is below the current offset, which is how tests make Telegram re-deliver.
 * - `pushMessage({...})` builds a `message` update (private chat for positive ids, supergroup
 *   for negative ones unless `chatType` says otherwise) and queues it; `getChat` then knows the chat.
 * - `pushReaction({...})` queues a `message_reaction` update (a user's emoji added to a message).
 *   As Telegram, it is handed out only to a poller (or webhook) that listed `message_reaction` in
 *   its `allowed_updates`; otherwise it is dropped. `lastBotMessageId(chatId)` is the id of the
 *   bot's last sendMessage in a chat (what a user reacts to).
 * - `getUpdates` holds the request up to `timeout` seconds and answers as soon as an update is
 *   queued; `offset` confirms (drops) every handed-out update below it.
 * - `sent`: every delivered sendMessage / editMessageText / editMessageReplyMarkup / sendChatAction
 *   / setMessageReaction / deleteMessage call; `messages(chatId?)` the sendMessage bodies; `shown(chatId)` the texts
 *   of the bot's messages still in the chat (as last edited, deleted ones gone); `calls`: every
 *   request with its status.
 * - `failNext(method, failure, { afterSuccesses })` makes the next call of `method` (or the one
 *   after `afterSuccesses` answered calls) fail as Telegram would (429 with `retry_after`, 409,
 *   400 / 403 with a description, 401, 500). Failures queue up per method.
 * - `hangNext(method)` accepts the next call of `method` and never answers; `release()` then
 *   drops those connections (the client sees a network error). A hung call is never recorded in
 *   `sent`: the message was not delivered.
 * - `conflictPolling(true)` answers every getUpdates with 409 until `conflictPolling(false)`.
 * - `clearArmed()` forgets every failure and hang not met yet and ends a polling conflict (between
 *   tests); calls already held stay held until `release()`.
 * - `getUpdatesCalls`, `getUpdatesOffsets` (the `offset` each getUpdates carried), `webhook`.
 * - `mostPollsHeld`: the most getUpdates long polls held at one time (2 means two pollers ran).
 * - `waitFor(predicate, timeoutMs)` polls until `predicate()` is true, else rejects.
 * - `dropConnections()` destroys every open connection (between tests, once the gateway is killed).
 */
export interface FakeTelegram {
  /** The `apiRoot` to give grammY: `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  readonly token: string;
  readonly botId: number;
  readonly botUsername: string;
  pushUpdate(update: FakeUpdate): number;
  pushMessage(message: PushMessageInput): FakeUpdate;
  pushReaction(reaction: PushReactionInput): number;
  lastBotMessageId(chatId: number | string): number | undefined;
  /**
   * A file users can send (`photo`, `document`, `voice` in `pushMessage`): its `file_id`. `getFile`
   * answers for it and `GET /file/bot<token>/<file_path>` serves the bytes.
   */
  addFile(bytes: Buffer, filePath: string): string;
  /** Files the bot uploaded (`sendPhoto`, `sendVoice`, `sendDocument` as multipart), in order. */
  readonly uploads: Array<{ method: string; chatId: string; fileName: string; bytes: Buffer; caption?: string }>;
  readonly sent: RecordedCall[];
  messages(chatId?: number | string): Record<string, unknown>[];
  shown(chatId: number | string): string[];
  readonly calls: Array<RecordedCall & { status: number }>;
  failNext(method: string, failure: FakeFailure, options?: { afterSuccesses?: number }): void;
  hangNext(method: string): void;
  release(): void;
  conflictPolling(on: boolean): void;
  /** Forgets every `failNext` and `hangNext` not met yet and ends `conflictPolling`; held calls stay held. */
  clearArmed(): void;
  readonly getUpdatesCalls: number;
  readonly mostPollsHeld: number;
  readonly getUpdatesOffsets: Array<number | undefined>;
  /** What the last setWebhook registered; null after deleteWebhook. */
  readonly webhook: { url: string; secretToken?: string } | null;
  /** Topics `createForumTopic` made, in order. */
  readonly topics: Array<{ chatId: string; threadId: number; name: string }>;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Connections open now. */
  readonly openConnections: number;
  /**
   * Destroys every open connection, keeping the listener and what was recorded. Call it once the
   * clients are gone (a killed gateway): a call one sent just before, not yet read, is then never recorded.
   */
  dropConnections(): void;
  close(): Promise<void>;
}

export type FakeUpdate = { update_id?: number } & Record<string, unknown>;

export interface PushReactionInput {
  chatId: number;
  /** Default: `private` for positive ids, `supergroup` for negative ones. */
  chatType?: "private" | "group" | "supergroup";
  messageId: number;
  fromId: number;
  fromName?: string;
  fromUsername?: string;
  /** The emoji the user has on the message after the change. */
  emoji: string[];
  /** The emoji the user had before (default none). */
  before?: string[];
}

export interface PushMessageInput {
  chatId: number;
  /** Default: `private` for positive ids, `supergroup` for negative ones. */
  chatType?: "private" | "group" | "supergroup" | "channel";
  /** The chat's public @username (without the @): `getChat("@name")` then finds it. */
  chatUsername?: string;
  fromId: number;
  fromName?: string;
  fromUsername?: string;
  text: string;
  messageId?: number;
  /** A forum topic: sets `message_thread_id` and `is_topic_message`. */
  threadId?: number;
  entities?: Array<Record<string, unknown>>;
  /** A photo (one size) by `file_id` from `addFile`; `text` becomes its caption. */
  photo?: string;
  /** A document by `file_id` from `addFile`; `text` becomes its caption. */
  document?: { fileId: string; fileName: string; mimeType: string };
  /** A voice note by `file_id` from `addFile`. */
  voice?: string;
  /** The replied-to message; `fromId` equal to the bot id makes it a reply to the bot. */
  replyTo?: { messageId: number; fromId: number; text?: string };
}

export interface RecordedCall {
  method: string;
  body: Record<string, unknown>;
  at: number;
}

export type FakeFailure = { status: 429; retryAfter: number } | { status: 409 } | { status: 400 | 403; description: string } | { status: 401 } | { status: 500 };

interface QueuedUpdate {
  update: FakeUpdate & { update_id: number };
  /** Handed out by a getUpdates answer; only handed-out updates are confirmed by an offset. */
  handedOut: boolean;
}

interface PendingPoll {
  offset: number | undefined;
  limit: number;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

const MAX_TEXT_LENGTH = 4096;

export async function startFakeTelegram(options: { token?: string; botId?: number; botUsername?: string; forumChatIds?: number[] } = {}): Promise<FakeTelegram> {
  const token = options.token ?? "123456:TEST-fake-telegram-token";
  const botId = options.botId ?? 123456;
  const botUsername = options.botUsername ?? "fake_openclaw_bot";
  const queue: QueuedUpdate[] = [];
  const sent: RecordedCall[] = [];
  const calls: Array<RecordedCall & { status: number }> = [];
  /** Per method, what its next calls meet: a failure, or `"answer"` (answered as usual). */
  const failures = new Map<string, Array<FakeFailure | "answer">>();
  const hangs = new Map<string, number>();
  const files = new Map<string, { bytes: Buffer; path: string }>();
  const uploads: FakeTelegram["uploads"] = [];
  const hungResponses = new Set<ServerResponse>();
  const polls = new Set<PendingPoll>();
  let mostPollsHeld = 0;
  /** Text of every message the bot sent, by `chatId:messageId`, so edits can be checked. */
  const botMessages = new Map<string, string>();
  const getUpdatesOffsets: Array<number | undefined> = [];
  let nextUpdateId = 1000;
  let nextMessageId = 5000;
  let pollingConflict = false;
  let webhook: { url: string; secretToken?: string } | null = null;
  /** The last `allowed_updates` a getUpdates or setWebhook gave (Telegram keeps the last one). */
  let allowedUpdates: string[] = [];
  const botMessageIds = new Map<string, number>();
  const forums = new Set((options.forumChatIds ?? []).map(String));
  /** The chats messages were pushed in, as `getChat` answers for them (by id and by @username). */
  const chats = new Map<string, Record<string, unknown>>();
  const topics: FakeTelegram["topics"] = [];
  let nextTopicId = 100;

  const botUser = { id: botId, is_bot: true, first_name: "Fake Bot", username: botUsername };

  const answer = (res: ServerResponse, method: string, body: Record<string, unknown>, status: number, payload: unknown) => {
    calls.push({ method, body, at: Date.now(), status });
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  };
  const ok = (res: ServerResponse, method: string, body: Record<string, unknown>, result: unknown) => answer(res, method, body, 200, { ok: true, result });
  const fail = (res: ServerResponse, method: string, body: Record<string, unknown>, status: number, description: string, parameters?: Record<string, unknown>) =>
    answer(res, method, body, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

  const failureReply = (failure: FakeFailure): { description: string; parameters?: Record<string, unknown> } => {
    switch (failure.status) {
      case 429:
        return { description: `Too Many Requests: retry after ${failure.retryAfter}`, parameters: { retry_after: failure.retryAfter } };
      case 409:
        return { description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" };
      case 400:
      case 403:
        return { description: failure.description };
      case 401:
        return { description: "Unauthorized" };
      case 500:
        return { description: "Internal Server Error" };
    }
  };

  /** Drops handed-out updates below the offset: Telegram forgets them as soon as the request arrives. */
  const confirm = (offset: number | undefined) => {
    if (offset === undefined) return;
    for (let i = queue.length - 1; i >= 0; i--) {
      if (queue[i]!.handedOut && queue[i]!.update.update_id < offset) queue.splice(i, 1);
    }
  };

  /** What a getUpdates with this offset hands out now. */
  const takeUpdates = (offset: number | undefined, limit: number): QueuedUpdate["update"][] => {
    confirm(offset);
    // Telegram never sends reactions to a bot that did not ask for them.
    if (!allowedUpdates.includes("message_reaction")) {
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.update.message_reaction !== undefined) queue.splice(i, 1);
    }
    const batch = queue.slice(0, limit);
    for (const entry of batch) entry.handedOut = true;
    return batch.map((entry) => entry.update);
  };

  /** True when a getUpdates with this offset would hand out something right now. */
  const hasUpdatesFor = (offset: number | undefined) => queue.some((entry) => !(entry.handedOut && offset !== undefined && entry.update.update_id < offset));

  const answerPoll = (poll: PendingPoll) => {
    clearTimeout(poll.timer);
    polls.delete(poll);
    ok(poll.res, "getUpdates", { offset: poll.offset }, takeUpdates(poll.offset, poll.limit));
  };

  const handleGetUpdates = (res: ServerResponse, body: Record<string, unknown>) => {
    rememberAllowedUpdates(body);
    const offset = optionalNumber(body.offset);
    confirm(offset);
    if (pollingConflict) return fail(res, "getUpdates", body, 409, failureReply({ status: 409 }).description);
    if (webhook) return fail(res, "getUpdates", body, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    const limit = optionalNumber(body.limit) ?? 100;
    const timeoutSeconds = optionalNumber(body.timeout) ?? 0;
    const poll: PendingPoll = { offset, limit, res, timer: setTimeout(() => answerPoll(poll), timeoutSeconds * 1000) };
    if (hasUpdatesFor(offset) || timeoutSeconds <= 0) return answerPoll(poll);
    polls.add(poll);
    mostPollsHeld = Math.max(mostPollsHeld, polls.size);
    res.on("close", () => {
      clearTimeout(poll.timer);
      polls.delete(poll);
    });
  };

  const rememberAllowedUpdates = (body: Record<string, unknown>) => {
    const raw = typeof body.allowed_updates === "string" ? (JSON.parse(body.allowed_updates) as unknown) : body.allowed_updates;
    if (Array.isArray(raw)) allowedUpdates = raw.map(String);
  };

  const sendMessage = (res: ServerResponse, body: Record<string, unknown>) => {
    const chatId = body.chat_id;
    const checked = checkText(body);
    if ("error" in checked) return fail(res, "sendMessage", body, 400, checked.error);
    if (chatId === undefined || chatId === "") return fail(res, "sendMessage", body, 400, "Bad Request: chat_id is empty");
    const messageId = nextMessageId++;
    botMessages.set(`${chatId}:${messageId}`, String(body.text));
    botMessageIds.set(String(chatId), messageId);
    sent.push({ method: "sendMessage", body, at: Date.now() });
    const threadId = optionalNumber(body.message_thread_id);
    ok(res, "sendMessage", body, {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      chat: chatFor(chatId),
      from: botUser,
      text: checked.visibleText,
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
    });
  };

  const editMessageText = (res: ServerResponse, body: Record<string, unknown>) => {
    const key = `${body.chat_id}:${body.message_id}`;
    const previous = botMessages.get(key);
    if (previous === undefined) return fail(res, "editMessageText", body, 400, "Bad Request: message to edit not found");
    const checked = checkText(body);
    if ("error" in checked) return fail(res, "editMessageText", body, 400, checked.error);
    if (previous === String(body.text)) {
      return fail(
        res,
        "editMessageText",
        body,
        400,
        "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }
    botMessages.set(key, String(body.text));
    sent.push({ method: "editMessageText", body, at: Date.now() });
    ok(res, "editMessageText", body, {
      message_id: Number(body.message_id),
      date: Math.floor(Date.now() / 1000),
      chat: chatFor(body.chat_id),
      from: botUser,
      text: checked.visibleText,
    });
  };

  const editMessageReplyMarkup = (res: ServerResponse, body: Record<string, unknown>) => {
    const key = `${body.chat_id}:${body.message_id}`;
    const text = botMessages.get(key);
    if (text === undefined) return fail(res, "editMessageReplyMarkup", body, 400, "Bad Request: message to edit not found");
    sent.push({ method: "editMessageReplyMarkup", body, at: Date.now() });
    ok(res, "editMessageReplyMarkup", body, { message_id: Number(body.message_id), date: Math.floor(Date.now() / 1000), chat: chatFor(body.chat_id), from: botUser, text });
  };

  const deleteMessage = (res: ServerResponse, body: Record<string, unknown>) => {
    if (!botMessages.delete(`${body.chat_id}:${body.message_id}`)) return fail(res, "deleteMessage", body, 400, "Bad Request: message to delete not found");
    sent.push({ method: "deleteMessage", body, at: Date.now() });
    ok(res, "deleteMessage", body, true);
  };

  const dispatch = (res: ServerResponse, method: string, body: Record<string, unknown>) => {
    switch (method.toLowerCase()) {
      case "getme":
        return ok(res, method, body, { ...botUser, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case "getupdates":
        return handleGetUpdates(res, body);
      case "sendmessage":
        return sendMessage(res, body);
      case "editmessagetext":
        return editMessageText(res, body);
      case "editmessagereplymarkup":
        return editMessageReplyMarkup(res, body);
      case "deletemessage":
        return deleteMessage(res, body);
      case "sendchataction":
      case "setmessagereaction":
        sent.push({ method, body, at: Date.now() });
        return ok(res, method, body, true);
      case "setwebhook":
        webhook = { url: String(body.url), ...(body.secret_token !== undefined ? { secretToken: String(body.secret_token) } : {}) };
        rememberAllowedUpdates(body);
        return ok(res, method, body, true);
      case "deletewebhook":
        webhook = null;
        return ok(res, method, body, true);
      case "getchat": {
        const chat = chats.get(String(body.chat_id));
        return chat ? ok(res, method, body, chat) : fail(res, method, body, 400, "Bad Request: chat not found");
      }
      case "getfile": {
        const file = files.get(String(body.file_id));
        if (!file) return fail(res, method, body, 400, "Bad Request: invalid file_id");
        return ok(res, method, body, { file_id: String(body.file_id), file_unique_id: `u${String(body.file_id)}`, file_size: file.bytes.length, file_path: file.path });
      }
      case "sendphoto":
      case "sendvoice":
      case "senddocument": {
        const field = ({ sendphoto: "photo", sendvoice: "voice", senddocument: "document" } as const)[method.toLowerCase() as "sendphoto" | "sendvoice" | "senddocument"];
        const file = body[field];
        if (!(file instanceof UploadedFile)) return fail(res, method, body, 400, `Bad Request: there is no ${field} in the request`);
        const chatId = String(body.chat_id);
        uploads.push({ method, chatId, fileName: file.name, bytes: file.bytes, ...(body.caption !== undefined ? { caption: String(body.caption) } : {}) });
        sent.push({ method, body: { ...body, [field]: file.name }, at: Date.now() });
        return ok(res, method, body, { message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: chatFor(body.chat_id), from: botUser });
      }
      case "setmycommands":
      case "answercallbackquery":
        return ok(res, method, body, true);
      case "createforumtopic": {
        if (!forums.has(String(body.chat_id))) return fail(res, method, body, 400, "Bad Request: the chat is not a forum");
        const topic = { chatId: String(body.chat_id), threadId: nextTopicId++, name: String(body.name ?? "") };
        topics.push(topic);
        return ok(res, method, body, { message_thread_id: topic.threadId, name: topic.name, icon_color: 7322096 });
      }
      default:
        return fail(res, method, body, 404, "Not Found: method not found");
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download && req.method === "GET") {
      const file = [...files.values()].find((f) => f.path === decodeURIComponent(download[2]!));
      if (download[1] !== token || !file) return fail(res, "file", {}, 404, "Not Found");
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.bytes.length }).end(file.bytes);
      return;
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return fail(res, "?", {}, 404, "Not Found");
    const [, requestToken, method] = match as unknown as [string, string, string];
    let body: Record<string, unknown>;
    try {
      const multipart = (req.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data");
      const parsed = multipart ? await parseMultipart(req) : parseBody(req.headers["content-type"], await readBody(req));
      body = { ...Object.fromEntries(url.searchParams), ...parsed };
    } catch (error) {
      return fail(res, method, {}, 400, `Bad Request: ${(error as Error).message}`);
    }
    if (requestToken !== token) return fail(res, method, body, 401, "Unauthorized");
    const key = method.toLowerCase();
    if (key === "getupdates") getUpdatesOffsets.push(optionalNumber(body.offset));
    const hangCount = hangs.get(key) ?? 0;
    if (hangCount > 0) {
      hangs.set(key, hangCount - 1);
      calls.push({ method, body, at: Date.now(), status: 0 });
      hungResponses.add(res);
      return;
    }
    const failure = failures.get(key)?.shift();
    if (failure && failure !== "answer") {
      const reply = failureReply(failure);
      return fail(res, method, body, failure.status, reply.description, reply.parameters);
    }
    dispatch(res, method, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) fail(res, "?", {}, 500, `fake telegram crashed: ${String(error)}`);
    });
  });
  const connections = trackConnections(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeTelegram = {
    url: `http://127.0.0.1:${port}`,
    token,
    botId,
    botUsername,
    sent,
    calls,
    getUpdatesOffsets,
    get getUpdatesCalls() {
      return getUpdatesOffsets.length;
    },
    get mostPollsHeld() {
      return mostPollsHeld;
    },
    get webhook() {
      return webhook;
    },
    get openConnections() {
      return connections.size;
    },
    dropConnections() {
      connections.destroyAll();
    },
    topics,
    pushUpdate(update) {
      const updateId = update.update_id ?? nextUpdateId;
      nextUpdateId = Math.max(nextUpdateId, updateId + 1);
      queue.push({ update: { ...update, update_id: updateId }, handedOut: false });
      for (const poll of [...polls]) answerPoll(poll);
      return updateId;
    },
    pushReaction(input) {
      const chatType = input.chatType ?? (input.chatId < 0 ? "supergroup" : "private");
      const chat =
        chatType === "private" ? { id: input.chatId, type: chatType, first_name: `User ${input.fromId}` } : { id: input.chatId, type: chatType, title: `Chat ${input.chatId}` };
      const asReactions = (emoji: string[]) => emoji.map((e) => ({ type: "emoji", emoji: e }));
      return fake.pushUpdate({
        message_reaction: {
          chat,
          message_id: input.messageId,
          user: { id: input.fromId, is_bot: false, first_name: input.fromName ?? `User ${input.fromId}`, ...(input.fromUsername ? { username: input.fromUsername } : {}) },
          date: Math.floor(Date.now() / 1000),
          old_reaction: asReactions(input.before ?? []),
          new_reaction: asReactions(input.emoji),
        },
      });
    },
    lastBotMessageId(chatId) {
      return botMessageIds.get(String(chatId));
    },
    uploads,
    addFile(bytes, filePath) {
      const fileId = `file-${files.size + 1}`;
      files.set(fileId, { bytes, path: filePath });
      return fileId;
    },
    pushMessage(input) {
      const chatType = input.chatType ?? (input.chatId < 0 ? "supergroup" : "private");
      if (input.threadId !== undefined) forums.add(String(input.chatId));
      const messageId = input.messageId ?? nextMessageId++;
      const message: Record<string, unknown> = {
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat:
          chatType === "private"
            ? { id: input.chatId, type: chatType, first_name: `User ${input.fromId}` }
            : { id: input.chatId, type: chatType, title: `Chat ${input.chatId}`, ...(input.threadId !== undefined ? { is_forum: true } : {}) },
        from: { id: input.fromId, is_bot: false, first_name: input.fromName ?? `User ${input.fromId}`, ...(input.fromUsername ? { username: input.fromUsername } : {}) },
        text: input.text,
      };
      const chat = message.chat as Record<string, unknown>;
      chats.set(String(input.chatId), chat);
      if (input.chatUsername) chats.set(`@${input.chatUsername}`, { ...chat, username: input.chatUsername });
      if (input.entities) message.entities = input.entities;
      const fileSize = (fileId: string) => files.get(fileId)?.bytes.length ?? 0;
      if (input.photo !== undefined || input.document !== undefined || input.voice !== undefined) {
        delete message.text;
        if (input.text) message.caption = input.text;
      }
      if (input.photo !== undefined) message.photo = [{ file_id: input.photo, file_unique_id: `u${input.photo}`, width: 640, height: 480, file_size: fileSize(input.photo) }];
      if (input.document !== undefined) {
        const { fileId, fileName, mimeType } = input.document;
        message.document = { file_id: fileId, file_unique_id: `u${fileId}`, file_name: fileName, mime_type: mimeType, file_size: fileSize(fileId) };
      }
      if (input.voice !== undefined)
        message.voice = { file_id: input.voice, file_unique_id: `u${input.voice}`, duration: 2, mime_type: "audio/ogg", file_size: fileSize(input.voice) };
      if (input.threadId !== undefined) Object.assign(message, { message_thread_id: input.threadId, is_topic_message: true });
      if (input.replyTo) {
        message.reply_to_message = {
          message_id: input.replyTo.messageId,
          date: Math.floor(Date.now() / 1000),
          chat: message.chat,
          from: input.replyTo.fromId === botId ? botUser : { id: input.replyTo.fromId, is_bot: false, first_name: `User ${input.replyTo.fromId}` },
          ...(input.replyTo.text !== undefined ? { text: input.replyTo.text } : {}),
        };
      }
      const update: FakeUpdate = { message };
      update.update_id = fake.pushUpdate(update);
      return update;
    },
    messages(chatId) {
      return sent.filter((call) => call.method === "sendMessage" && (chatId === undefined || String(call.body.chat_id) === String(chatId))).map((call) => call.body);
    },
    shown(chatId) {
      return [...botMessages].filter(([key]) => key.startsWith(`${chatId}:`)).map(([, text]) => text);
    },
    failNext(method, failure, options = {}) {
      const key = method.toLowerCase();
      const answered = Array.from({ length: options.afterSuccesses ?? 0 }, () => "answer" as const);
      failures.set(key, [...(failures.get(key) ?? []), ...answered, failure]);
    },
    hangNext(method) {
      const key = method.toLowerCase();
      hangs.set(key, (hangs.get(key) ?? 0) + 1);
    },
    release() {
      for (const res of hungResponses) res.socket?.destroy();
      hungResponses.clear();
    },
    conflictPolling(on) {
      pollingConflict = on;
    },
    clearArmed() {
      failures.clear();
      hangs.clear();
      pollingConflict = false;
    },
    async waitFor(predicate, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`fake telegram: condition not met within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      for (const poll of polls) clearTimeout(poll.timer);
      polls.clear();
      hungResponses.clear();
      connections.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function chatFor(chatId: unknown): Record<string, unknown> {
  const id = typeof chatId === "string" && /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
  return typeof id === "number" ? { id, type: id < 0 ? "supergroup" : "private" } : { id: 0, type: "channel", username: String(chatId).replace(/^@/, "") };
}

function optionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** JSON or form-encoded, as Telegram accepts; form values holding JSON objects/arrays are parsed. */
function parseBody(contentType: string | undefined, text: string): Record<string, unknown> {
  if (!text) return {};
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("JSON body must be an object");
    return parsed as Record<string, unknown>;
  }
  if (type === "application/x-www-form-urlencoded") {
    const body: Record<string, unknown> = {};
    for (const [key, value] of new URLSearchParams(text)) body[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
    return body;
  }
  throw new Error(`unsupported content type "${type}" (the fake takes JSON or form-encoded bodies)`);
}

const HTML_TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "pre", "a", "tg-spoiler", "span", "blockquote", "tg-emoji"]);

/**
 * Telegram's checks on a message text: not empty, HTML well formed when `parse_mode` is HTML,
 * at most 4096 characters once entities are parsed. Returns the text the user would see.
 */
function checkText(body: Record<string, unknown>): { visibleText: string } | { error: string } {
  const text = typeof body.text === "string" ? body.text : "";
  if (!text.trim()) return { error: "Bad Request: message text is empty" };
  let visibleText = text;
  if (body.parse_mode === "HTML") {
    const parsed = parseTelegramHtml(text);
    if ("error" in parsed) return { error: `Bad Request: can't parse entities: ${parsed.error}` };
    visibleText = parsed.visibleText;
  } else if (body.parse_mode !== undefined) {
    return { error: `Bad Request: unsupported parse_mode ${String(body.parse_mode)} in the fake` };
  }
  if (visibleText.length > MAX_TEXT_LENGTH) return { error: "Bad Request: message is too long" };
  return { visibleText };
}

function parseTelegramHtml(html: string): { visibleText: string } | { error: string } {
  const open: string[] = [];
  let visible = "";
  let i = 0;
  while (i < html.length) {
    const ch = html[i]!;
    if (ch === "<") {
      const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+="[^"<>]*")*)\s*>/.exec(html.slice(i));
      if (!tag) return { error: `Unsupported start tag at byte offset ${i}` };
      const [whole, closing, rawName] = tag as unknown as [string, string, string];
      const name = rawName.toLowerCase();
      if (!HTML_TAGS.has(name)) return { error: `Unsupported start tag "${name}" at byte offset ${i}` };
      if (closing) {
        if (open.pop() !== name) return { error: `Can't find end tag corresponding to start tag "${name}"` };
      } else {
        open.push(name);
      }
      i += whole.length;
    } else if (ch === "&") {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/.exec(html.slice(i));
      if (!entity) return { error: `Character entity expected at byte offset ${i}` };
      visible += { lt: "<", gt: ">", amp: "&", quot: '"' }[entity[1]!] ?? "?";
      i += entity[0].length;
    } else if (ch === ">") {
      return { error: `Unexpected end tag at byte offset ${i}` };
    } else {
      visible += ch;
      i++;
    }
  }
  if (open.length > 0) return { error: `Can't find end tag corresponding to start tag "${open[open.length - 1]}"` };
  return { visibleText: visible };
}
