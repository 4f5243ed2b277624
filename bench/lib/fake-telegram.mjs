// A minimal fake Telegram Bot API for the channel bench: a real HTTP server on loopback that the
// gateway's grammY client reaches through `channels.telegram.apiRoot`. It stamps when each update
// is handed out and when each sendMessage arrives, on the bench's own clock, so a latency can be
// measured without the long-poll wait. (test/fakes/telegram-server.ts is the full-featured fake
// for the vitest suites; it is TypeScript, and the benches run as plain .mjs.)
import http from "node:http";
import { HOST } from "./spawn-gateway.mjs";
import { now, StepError } from "./util.mjs";

/** Telegram hands out at most 100 updates per getUpdates, whatever `limit` asks for. */
const MAX_BATCH = 100;
const BOT = { id: 777000111, is_bot: true, first_name: "Bench Bot", username: "bench_openclaw_bot" };

/**
 * Implemented methods: getMe, getUpdates (long poll; `offset` confirms everything below it, the
 * rest is handed out again, as Telegram does), sendMessage, sendChatAction, deleteWebhook,
 * setMyCommands. Another token gets 401, an unknown method 404. A getUpdates arriving while one is
 * held ends the held one with 409, as Telegram does (one poller per bot). Bodies are JSON, which
 * is what grammY sends when no file is attached.
 */
export async function startFakeTelegram({ token }) {
  /** Updates not yet confirmed by an offset, oldest first: `{ update }`. */
  const queue = [];
  /** update_id → when a getUpdates answer first carried it. */
  const handedOutAt = new Map();
  const sendListeners = new Set();
  const pollWaiters = new Set();
  let heldPoll;
  let nextUpdateId = 1;
  let nextMessageId = 1;
  const unexpected = [];

  const reply = (res, status, payload) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  };
  const ok = (res, result) => reply(res, 200, { ok: true, result });
  const fail = (res, status, description) => reply(res, status, { ok: false, error_code: status, description });

  const confirm = (offset) => {
    if (offset === undefined) return;
    while (queue.length > 0 && queue[0].update.update_id < offset) queue.shift();
  };

  const answerPoll = (poll) => {
    clearTimeout(poll.timer);
    if (heldPoll === poll) heldPoll = undefined;
    const batch = queue.slice(0, poll.limit).map((entry) => entry.update);
    // Stamped just before the answer is written: from here on the gateway has the update.
    const at = now();
    for (const update of batch) if (!handedOutAt.has(update.update_id)) handedOutAt.set(update.update_id, at);
    ok(poll.res, batch);
  };

  const getUpdates = (res, body) => {
    if (heldPoll) {
      clearTimeout(heldPoll.timer);
      fail(heldPoll.res, 409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running");
      heldPoll = undefined;
    }
    confirm(optionalNumber(body.offset));
    const limit = Math.min(MAX_BATCH, Math.max(1, optionalNumber(body.limit) ?? MAX_BATCH));
    const timeoutSeconds = optionalNumber(body.timeout) ?? 0;
    const poll = { limit, res, timer: undefined };
    if (queue.length > 0 || timeoutSeconds <= 0) return answerPoll(poll);
    heldPoll = poll;
    for (const waiter of pollWaiters) waiter();
    pollWaiters.clear();
    poll.timer = setTimeout(() => answerPoll(poll), timeoutSeconds * 1000);
    res.on("close", () => {
      clearTimeout(poll.timer);
      if (heldPoll === poll) heldPoll = undefined;
    });
  };

  const sendMessage = (res, body) => {
    const at = now();
    if (body.chat_id === undefined || typeof body.text !== "string" || !body.text.trim()) return fail(res, 400, "Bad Request: chat_id and a non-empty text are required");
    const message = { chatId: String(body.chat_id), text: body.text, at };
    for (const listener of sendListeners) listener(message);
    const chatId = Number(body.chat_id);
    ok(res, { message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: chatId < 0 ? "supergroup" : "private" }, from: BOT, text: body.text });
  };

  const dispatch = (res, method, body) => {
    switch (method) {
      case "getMe":
        return ok(res, { ...BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case "getUpdates":
        return getUpdates(res, body);
      case "sendMessage":
        return sendMessage(res, body);
      case "sendChatAction":
      case "deleteWebhook":
      case "setMyCommands":
        return ok(res, true);
      default:
        unexpected.push(method);
        return fail(res, 404, "Not Found: method not found");
    }
  };

  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url ?? "/", "http://fake").pathname);
      if (!match) return fail(res, 404, "Not Found");
      // The token is compared, never echoed: nothing the fake writes may carry it.
      if (match[1] !== token) return fail(res, 401, "Unauthorized");
      let body;
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return fail(res, 400, "Bad Request: body is not JSON");
      }
      dispatch(res, match[2], body);
    });
  });
  await new Promise((resolve) => server.listen(0, HOST, resolve));

  return {
    /** The `apiRoot` for the gateway config (no trailing slash). */
    url: `http://${HOST}:${server.address().port}`,
    /** Methods the gateway called that the fake does not implement. */
    unexpected,

    /**
     * Queues private-chat text messages (`[{ fromId, text }]`, in arrival order) and answers a
     * held poll with them at once, up to 100 per batch. Returns their update_ids.
     */
    pushMessages(messages) {
      const ids = messages.map(({ fromId, text }) => {
        const updateId = nextUpdateId++;
        const from = { id: fromId, is_bot: false, first_name: `User ${fromId}` };
        const message = { message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: fromId, type: "private", first_name: from.first_name }, from, text };
        queue.push({ update: { update_id: updateId, message } });
        return updateId;
      });
      if (heldPoll && ids.length > 0) answerPoll(heldPoll);
      return ids;
    },

    /** When the update was first handed out (bench clock, ms), or undefined while it was not. */
    handedOutAt(updateId) {
      return handedOutAt.get(updateId);
    },

    /** Calls `listener({ chatId, text, at })` for every sendMessage, in arrival order. */
    onSendMessage(listener) {
      sendListeners.add(listener);
    },

    /** Resolves once a getUpdates is held (the gateway's poller waits for updates), or rejects after `timeoutMs`. */
    waitForPoll(timeoutMs, step) {
      if (heldPoll) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          pollWaiters.delete(done);
          reject(new StepError(step, `no getUpdates held within ${timeoutMs} ms`));
        }, timeoutMs);
        pollWaiters.add(done);
      });
    },

    close() {
      if (heldPoll) clearTimeout(heldPoll.timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function optionalNumber(value) {
  if (value === undefined || value === null || value === "") return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}
