import { MessageFlags } from "discord.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChannelPermanentError, ChannelRateLimitError } from "../../../../src/channels/types.js";
import { envelopeFor, GENERAL_ID, GUILD_ID, startAccount, THREAD_ID, type Running } from "./harness.js";

/** One account for the whole file: sends do not change connection state. */
describe("discord plugin: sending", () => {
  let running: Running;
  beforeAll(async () => {
    running = await startAccount();
  });
  afterAll(async () => {
    await running.cleanup();
  });
  beforeEach(() => {
    running.fake.sent.length = 0;
    running.fake.clearArmed();
  });

  const rejection = async (promise: Promise<unknown>): Promise<Error> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    if (!error) throw new Error("expected the call to fail");
    return error;
  };

  it("posts the Markdown as written, with embeds suppressed and no mention parsed, and returns the new id", async () => {
    const markdown = "**bold** _it_ `code` <@42> @everyone";
    const sent = await running.account.send({ chatId: GENERAL_ID }, { markdown });
    const [posted] = running.fake.messages().filter((m) => m.id === sent.messageId);
    expect(posted).toBeDefined();
    expect(posted!.channelId).toBe(GENERAL_ID);
    expect(posted!.content).toBe(markdown);
    expect(posted!.body.flags).toBe(MessageFlags.SuppressEmbeds);
    expect(posted!.body.allowed_mentions).toEqual({ parse: [], replied_user: false });
    expect(posted!.body.message_reference).toBeUndefined();
  });

  it("quotes the message it replies to without failing when that message is gone, and adds SuppressNotifications when silent", async () => {
    const pushed = running.fake.pushMessage({ channelId: GENERAL_ID, guildId: GUILD_ID, authorId: "42", content: "question" });
    const sent = await running.account.send({ chatId: GENERAL_ID, replyToMessageId: pushed.id }, { markdown: "answer", silent: true });
    const posted = running.fake.messages().find((m) => m.id === sent.messageId)!;
    expect(posted.body.message_reference).toMatchObject({ message_id: pushed.id, fail_if_not_exists: false });
    expect(posted.body.flags).toBe(MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications);
    expect(posted.body.allowed_mentions).toEqual({ parse: [], replied_user: false });
  });

  it("posts into the thread when the target names one", async () => {
    const sent = await running.account.send({ chatId: GENERAL_ID, threadId: THREAD_ID }, { markdown: "in thread" });
    expect(running.fake.messages(THREAD_ID).map((m) => m.id)).toContain(sent.messageId);
  });

  it("sends typing, edits a message and reacts to one", async () => {
    const target = { chatId: GENERAL_ID };
    const { messageId } = await running.account.send(target, { markdown: "draft" });
    await running.account.sendTyping!(target);
    await running.account.editMessage!(target, messageId, { markdown: "final" });
    await running.account.react!(target, messageId, "👍");
    const calls = running.fake.sent.map((r) => `${r.method} ${r.path}`);
    expect(calls).toContain(`POST /channels/${GENERAL_ID}/typing`);
    expect(calls).toContain(`PATCH /channels/${GENERAL_ID}/messages/${messageId}`);
    expect(calls).toContain(`PUT /channels/${GENERAL_ID}/messages/${messageId}/reactions/👍/@me`);
    const edit = running.fake.sent.find((r) => r.method === "PATCH")!;
    expect(edit.body).toMatchObject({ content: "final", allowed_mentions: { parse: [], replied_user: false } });
  });

  it("turns a 429 into ChannelRateLimitError with Discord's retry_after, without sleeping on it", async () => {
    running.fake.failNext(`POST /channels/${GENERAL_ID}/messages`, { status: 429, retryAfter: 2.5 });
    const started = Date.now();
    const error = await rejection(running.account.send({ chatId: GENERAL_ID }, { markdown: "too fast" }));
    expect(error).toBeInstanceOf(ChannelRateLimitError);
    expect((error as ChannelRateLimitError).retryAfterMs).toBeGreaterThanOrEqual(2500);
    expect((error as ChannelRateLimitError).retryAfterMs).toBeLessThan(4000);
    expect(Date.now() - started).toBeLessThan(1500);
    // The bucket is usable again right away: the core decides when to retry.
    await expect(running.account.send({ chatId: GENERAL_ID }, { markdown: "later" })).resolves.toMatchObject({ messageId: expect.any(String) });
  });

  it("turns Missing Access (403), Unknown Channel (404) and cannot-DM (50007) into ChannelPermanentError", async () => {
    running.fake.failNext(`POST /channels/${GENERAL_ID}/messages`, { status: 403, code: 50001 });
    const forbidden = await rejection(running.account.send({ chatId: GENERAL_ID }, { markdown: "x" }));
    expect(forbidden).toBeInstanceOf(ChannelPermanentError);
    expect(forbidden.message).toContain("Missing Access");

    const unknown = await rejection(running.account.send({ chatId: "999000000000000001" }, { markdown: "x" }));
    expect(unknown).toBeInstanceOf(ChannelPermanentError);
    expect(unknown.message).toContain("Unknown Channel");

    const { chatId } = await running.account.resolveTarget("user:4242");
    running.fake.failNext(`POST /channels/${chatId}/messages`, { status: 403, code: 50007 });
    const cannotDm = await rejection(running.account.send({ chatId }, { markdown: "x" }));
    expect(cannotDm).toBeInstanceOf(ChannelPermanentError);
    expect(cannotDm.message).toContain("50007");
  });

  it("leaves server errors retryable (a plain Error) once discord.js's own retries are spent", async () => {
    for (let i = 0; i < 4; i++) running.fake.failNext(`POST /channels/${GENERAL_ID}/messages`, { status: 500 });
    const error = await rejection(running.account.send({ chatId: GENERAL_ID }, { markdown: "x" }));
    expect(error).not.toBeInstanceOf(ChannelPermanentError);
    expect(error).not.toBeInstanceOf(ChannelRateLimitError);
    expect(error.message).toMatch(/^discord: /);
  });

  it("resolves channel:, <#…>, bare ids and discord: prefixes locally, and opens a DM for user:, <@…> and <@!…>", async () => {
    await expect(running.account.resolveTarget("channel:123")).resolves.toEqual({ chatId: "123" });
    await expect(running.account.resolveTarget("discord:channel:123")).resolves.toEqual({ chatId: "123" });
    await expect(running.account.resolveTarget("<#123>")).resolves.toEqual({ chatId: "123" });
    await expect(running.account.resolveTarget(" 123 ")).resolves.toEqual({ chatId: "123" });
    expect(running.fake.sent).toEqual([]);

    const dm = await running.account.resolveTarget("user:5151");
    expect(running.fake.sent).toEqual([{ method: "POST", path: "/users/@me/channels", body: { recipient_id: "5151" } }]);
    await expect(running.account.resolveTarget("<@5151>")).resolves.toEqual(dm);
    await expect(running.account.resolveTarget("discord:<@!5151>")).resolves.toEqual(dm);
    const sent = await running.account.send(dm, { markdown: "hi in DM" });
    expect(running.fake.messages(dm.chatId).map((m) => m.id)).toEqual([sent.messageId]);

    for (const bad of ["@alice", "user:abc", "channel:", "#general", "<@&123>", ""]) {
      await expect(running.account.resolveTarget(bad)).rejects.toThrow(/cannot read target/);
    }
  });

  it("starts a public thread in the text channel; the thread is its own chat, replies go there and messages in it come back as the thread", async () => {
    const thread = await running.account.createThread!({ chatId: GENERAL_ID }, `Research ${"x".repeat(120)}`);
    const created = running.fake.createdThreads().at(-1)!;
    expect(thread).toEqual({ chatId: created.id, threadId: created.id });
    expect(created).toMatchObject({ parentId: GENERAL_ID, type: 11 });
    expect(created.name).toHaveLength(100);
    const request = running.fake.sent.find((r) => r.method === "POST" && r.path === `/channels/${GENERAL_ID}/threads`)!;
    expect(request.body).toMatchObject({ auto_archive_duration: 1440 });

    const sent = await running.account.send(thread, { markdown: "first finding" });
    expect(running.fake.messages(created.id).map((m) => m.id)).toEqual([sent.messageId]);
    const pushed = running.fake.pushMessage({ channelId: created.id, guildId: GUILD_ID, authorId: "42", content: "and then?" });
    expect(await envelopeFor(running.stub, pushed.id)).toMatchObject({ chatId: created.id, threadId: created.id, parentChatId: GENERAL_ID });
  });

  it("opens the thread in the parent channel when asked from inside a thread (threads do not nest)", async () => {
    const thread = await running.account.createThread!({ chatId: THREAD_ID, threadId: THREAD_ID }, "from a thread");
    expect(running.fake.createdThreads().find((t) => t.id === thread.threadId)).toMatchObject({ parentId: GENERAL_ID });
  });

  it("refuses a thread in a DM as permanent, saying why", async () => {
    const dm = await running.account.resolveTarget("user:6161");
    const error = await rejection(running.account.createThread!(dm, "no threads here"));
    expect(error).toBeInstanceOf(ChannelPermanentError);
    expect(error.message).toMatch(/threads exist only in server text channels/);
  });

  it("never puts the token into an error", async () => {
    running.fake.failNext(`POST /channels/${GENERAL_ID}/messages`, { status: 403, code: 50013, message: `Missing Permissions for ${running.fake.token}` });
    const error = await rejection(running.account.send({ chatId: GENERAL_ID }, { markdown: "x" }));
    expect(error.message).toContain("Missing Permissions");
    expect(error.message).not.toContain(running.fake.token);
  });
});
