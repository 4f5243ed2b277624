import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChannelPermanentError, ChannelRateLimitError } from "../../../../src/channels/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../../fakes/telegram-server.js";
import { accountFactory, fakeConfig } from "./helpers.js";

let fake: FakeTelegram;
const accounts = accountFactory();

beforeEach(async () => {
  fake = await startFakeTelegram();
});

afterEach(async () => {
  await accounts.cleanup();
  await fake.close();
});

/** Sending needs no `start`: the CLI posts through accounts that never poll. */
function sender(extra: Record<string, unknown> = {}) {
  return accounts.create(fakeConfig(fake, extra));
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
}

describe("telegram send", () => {
  it("renders Markdown to Telegram HTML and returns the message id", async () => {
    const { account } = sender();
    const sent = await account.send({ chatId: "42" }, { markdown: "**Done** <now> & `x`" });
    expect(fake.messages("42")).toEqual([{ chat_id: "42", text: "<b>Done</b> &lt;now&gt; &amp; <code>x</code>", parse_mode: "HTML" }]);
    expect(sent.messageId).toMatch(/^\d+$/);
  });

  it("resends the chunk once as plain text when Telegram cannot parse the entities", async () => {
    const { account, logs } = sender();
    fake.failNext("sendMessage", { status: 400, description: "Bad Request: can't parse entities: Unsupported start tag" });
    await account.send({ chatId: "42" }, { markdown: "**hi**" });
    expect(fake.messages("42")).toEqual([{ chat_id: "42", text: "**hi**" }]);
    expect(logs.some((line) => line.includes("resending as plain text"))).toBe(true);
  });

  it("sends plain text when the rendered HTML would pass Telegram's 4096 characters", async () => {
    const { account } = sender();
    const markdown = "<".repeat(1100);
    await account.send({ chatId: "42" }, { markdown });
    expect(fake.messages("42")).toEqual([{ chat_id: "42", text: markdown }]);
  });

  it("throws ChannelRateLimitError with retry_after in ms on 429", async () => {
    const { account } = sender();
    fake.failNext("sendMessage", { status: 429, retryAfter: 7 });
    const error = await failureOf(account.send({ chatId: "42" }, { markdown: "hi" }));
    expect(error).toBeInstanceOf(ChannelRateLimitError);
    expect((error as ChannelRateLimitError).retryAfterMs).toBe(7000);
    expect(error.message).toBe("Telegram sendMessage failed (429: Too Many Requests: retry after 7)");
  });

  it("throws ChannelPermanentError for a missing chat, a blocked bot or a rejected token", async () => {
    const { account } = sender();
    fake.failNext("sendMessage", { status: 400, description: "Bad Request: chat not found" });
    expect(await failureOf(account.send({ chatId: "1" }, { markdown: "hi" }))).toBeInstanceOf(ChannelPermanentError);
    fake.failNext("sendMessage", { status: 403, description: "Forbidden: bot was blocked by the user" });
    expect(await failureOf(account.send({ chatId: "1" }, { markdown: "hi" }))).toBeInstanceOf(ChannelPermanentError);
    const { account: wrongBot } = sender({ botToken: "777:not-this-bot" });
    const rejected = await failureOf(wrongBot.send({ chatId: "1" }, { markdown: "hi" }));
    expect(rejected).toBeInstanceOf(ChannelPermanentError);
    expect(rejected.message).toBe("Telegram sendMessage failed (401: Unauthorized)");
  });

  it("throws a plain Error for other refusals and server errors", async () => {
    const { account } = sender();
    fake.failNext("sendMessage", { status: 400, description: "Bad Request: message thread not found" });
    fake.failNext("sendMessage", { status: 500 });
    for (const expected of ["Telegram sendMessage failed (400: Bad Request: message thread not found)", "Telegram sendMessage failed (500: Internal Server Error)"]) {
      const error = await failureOf(account.send({ chatId: "1" }, { markdown: "hi" }));
      expect(error.constructor).toBe(Error);
      expect(error.message).toBe(expected);
    }
  });

  it("reports a dropped connection as a plain, token-free network error", async () => {
    const { account } = sender();
    fake.hangNext("sendMessage");
    const pending = failureOf(account.send({ chatId: "42" }, { markdown: "lost?" }));
    await fake.waitFor(() => fake.calls.some((call) => call.method === "sendMessage"));
    fake.release();
    const error = await pending;
    expect(error.message).toMatch(/^Telegram sendMessage failed \(network error: /);
    expect(error.message).not.toContain(fake.token);
    expect(fake.messages()).toEqual([]);
  });

  it("sends into forum topics, but omits the General topic's thread id", async () => {
    const { account } = sender();
    await account.send({ chatId: "-100500", threadId: "17" }, { markdown: "topic" });
    await account.send({ chatId: "-100500", threadId: "1" }, { markdown: "general" });
    const [topic, general] = fake.messages("-100500");
    expect(topic).toMatchObject({ message_thread_id: 17 });
    expect(general).not.toHaveProperty("message_thread_id");
  });

  it("quotes the replied-to message, stays silent, and can turn link previews off", async () => {
    const { account } = sender({ linkPreview: false });
    await account.send({ chatId: "42", replyToMessageId: "99" }, { markdown: "see https://example.com", silent: true });
    expect(fake.messages("42")[0]).toMatchObject({
      reply_parameters: { message_id: 99, allow_sending_without_reply: true },
      disable_notification: true,
      link_preview_options: { is_disabled: true },
    });
  });
});

describe("telegram typing, edits and reactions", () => {
  it("sends the typing action with the topic, General included", async () => {
    const { account } = sender();
    await account.sendTyping!({ chatId: "-100500", threadId: "1" });
    expect(fake.sent).toEqual([{ method: "sendChatAction", body: { chat_id: "-100500", action: "typing", message_thread_id: 1 }, at: expect.any(Number) }]);
  });

  it("edits with the same HTML rendering and ignores 'message is not modified'", async () => {
    const { account } = sender();
    const { messageId } = await account.send({ chatId: "42" }, { markdown: "draft" });
    await account.editMessage!({ chatId: "42" }, messageId, { markdown: "**final**" });
    await account.editMessage!({ chatId: "42" }, messageId, { markdown: "**final**" });
    const edits = fake.sent.filter((call) => call.method === "editMessageText");
    expect(edits.map((call) => call.body)).toEqual([{ chat_id: "42", message_id: Number(messageId), text: "<b>final</b>", parse_mode: "HTML" }]);
    expect(fake.calls.filter((call) => call.method === "editMessageText").map((call) => call.status)).toEqual([200, 400]);
  });

  it("reacts with an emoji", async () => {
    const { account } = sender();
    await account.react!({ chatId: "42" }, "12", "👀");
    expect(fake.sent[0]).toMatchObject({ method: "setMessageReaction", body: { chat_id: "42", message_id: 12, reaction: [{ type: "emoji", emoji: "👀" }] } });
  });
});

describe("telegram threads (forum topics)", () => {
  it("creates a forum topic in a forum supergroup and returns it as the thread; sends there carry the topic", async () => {
    await fake.close();
    fake = await startFakeTelegram({ forumChatIds: [-1001] });
    const { account } = sender();
    const thread = await account.createThread!({ chatId: "-1001" }, `Research ${"x".repeat(200)}`);
    expect(fake.topics).toEqual([{ chatId: "-1001", threadId: expect.any(Number), name: expect.stringMatching(/^Research x+$/) }]);
    expect(fake.topics[0]!.name).toHaveLength(128);
    expect(thread).toEqual({ chatId: "-1001", threadId: String(fake.topics[0]!.threadId) });
    await account.send(thread, { markdown: "first finding" });
    expect(fake.messages("-1001")[0]).toMatchObject({ message_thread_id: fake.topics[0]!.threadId });
  });

  it("refuses a group that is not a forum, and a private chat, as permanent with the reason", async () => {
    const { account } = sender();
    const group = await failureOf(account.createThread!({ chatId: "-1002" }, "title"));
    expect(group).toBeInstanceOf(ChannelPermanentError);
    expect(group.message).toMatch(/only forum supergroups have.*this group is not a forum/);
    const privateChat = await failureOf(account.createThread!({ chatId: "42" }, "title"));
    expect(privateChat).toBeInstanceOf(ChannelPermanentError);
    expect(privateChat.message).toMatch(/this is a private chat/);
    expect(fake.calls.filter((c) => c.method === "createForumTopic").map((c) => c.body.chat_id)).toEqual(["-1002"]);
  });
});
