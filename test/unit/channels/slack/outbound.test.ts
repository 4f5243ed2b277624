import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChannelPermanentError, ChannelRateLimitError } from "../../../../src/channels/types.js";
import { startFakeSlack, type FakeSlack } from "../../../fakes/slack-server.js";
import { createSlackHarness, type SlackHarness } from "./helpers.js";

describe("Slack outbound", () => {
  let fake: FakeSlack;
  let harness: SlackHarness;

  beforeEach(async () => {
    fake = await startFakeSlack();
    harness = createSlackHarness(fake);
  });

  afterEach(async () => {
    await fake.close();
  });

  describe("send", () => {
    it("posts rendered mrkdwn and returns the message ts", async () => {
      const sent = await harness.account.send({ chatId: "C0GENERAL" }, { markdown: "**Done**: see [the docs](https://example.com/a?b=1&c=2) <!channel>" });
      expect(fake.posted).toEqual([
        { channel: "C0GENERAL", text: "*Done*: see <https://example.com/a?b=1&amp;c=2|the docs> &lt;!channel&gt;", unfurl_links: false, unfurl_media: false },
      ]);
      const [{ body }] = fake.calls.filter((call) => call.method === "chat.postMessage");
      expect(sent.messageId).toMatch(/^\d+\.\d{6}$/);
      expect(body).not.toHaveProperty("thread_ts");
    });

    it("replies in the thread", async () => {
      await harness.account.send({ chatId: "C0GENERAL", threadId: "1700000000.000100" }, { markdown: "in thread" });
      expect(fake.posted[0]).toMatchObject({ channel: "C0GENERAL", thread_ts: "1700000000.000100" });
    });

    it("answers a reply-to as a thread reply under that message", async () => {
      await harness.account.send({ chatId: "C0GENERAL", replyToMessageId: "1700000000.000200" }, { markdown: "reply" });
      expect(fake.posted[0]).toMatchObject({ thread_ts: "1700000000.000200" });
    });

    it("unfurls links only when configured", async () => {
      const unfurling = createSlackHarness(fake, { unfurlLinks: true });
      await unfurling.account.send({ chatId: "C0GENERAL" }, { markdown: "https://example.com" });
      expect(fake.posted[0]).toMatchObject({ unfurl_links: true, unfurl_media: false });
    });

    it("turns ratelimited into ChannelRateLimitError with Retry-After, without retrying itself", async () => {
      fake.failNext("chat.postMessage", { error: "ratelimited", retryAfter: 7 });
      const startedAt = Date.now();
      const error = await harness.account.send({ chatId: "C0GENERAL" }, { markdown: "hi" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelRateLimitError);
      expect((error as ChannelRateLimitError).retryAfterMs).toBe(7000);
      expect(Date.now() - startedAt).toBeLessThan(1000);
      expect(fake.calls.filter((call) => call.method === "chat.postMessage")).toHaveLength(1);
    });

    it.each(["channel_not_found", "not_in_channel", "is_archived"])("turns %s into ChannelPermanentError", async (code) => {
      fake.failNext("chat.postMessage", { error: code });
      const error = await harness.account.send({ chatId: "C0GONE" }, { markdown: "hi" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelPermanentError);
      expect((error as Error).message).toContain(code);
    });

    it("leaves a server error retryable", async () => {
      fake.failNext("chat.postMessage", { status: 500 });
      const error = await harness.account.send({ chatId: "C0GENERAL" }, { markdown: "hi" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ChannelPermanentError);
      expect(error).not.toBeInstanceOf(ChannelRateLimitError);
      expect((error as Error).message).toMatch(/HTTP 500/);
    });

    it("reports a rejected token as permanent, without the token", async () => {
      const wrong = createSlackHarness(fake, { botToken: "xoxb-wrong-secret-token" });
      const error = await wrong.account.send({ chatId: "C0GENERAL" }, { markdown: "hi" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelPermanentError);
      expect((error as Error).message).toContain("invalid_auth");
      expect((error as Error).message).not.toContain("wrong-secret");
      expect(wrong.logs.join("\n")).not.toContain("wrong-secret");
    });
  });

  it("edits a message with chat.update", async () => {
    await harness.account.editMessage!({ chatId: "C0GENERAL" }, "1700000000.000300", { markdown: "~~draft~~ final" });
    expect(fake.calls.find((call) => call.method === "chat.update")?.body).toMatchObject({ channel: "C0GENERAL", ts: "1700000000.000300", text: "~draft~ final" });
  });

  describe("react", () => {
    it("adds a reaction by name, mapping emoji characters and stripping colons", async () => {
      await harness.account.react!({ chatId: "C0GENERAL" }, "1700000000.000400", "👀");
      await harness.account.react!({ chatId: "C0GENERAL" }, "1700000000.000400", ":tada:");
      const names = fake.calls.filter((call) => call.method === "reactions.add").map((call) => call.body);
      expect(names).toEqual([
        { channel: "C0GENERAL", timestamp: "1700000000.000400", name: "eyes" },
        { channel: "C0GENERAL", timestamp: "1700000000.000400", name: "tada" },
      ]);
    });

    it("treats already_reacted as done", async () => {
      fake.failNext("reactions.add", { error: "already_reacted" });
      await expect(harness.account.react!({ chatId: "C0GENERAL" }, "1700000000.000400", "eyes")).resolves.toBeUndefined();
    });

    it("refuses an emoji it cannot name", async () => {
      await expect(harness.account.react!({ chatId: "C0GENERAL" }, "1700000000.000400", "🫠")).rejects.toBeInstanceOf(ChannelPermanentError);
    });
  });

  describe("createThread", () => {
    it("posts the title as a root message in the chat and returns its ts as the thread; a reply there lands in it", async () => {
      const thread = await harness.account.createThread!({ chatId: "C0GENERAL" }, "Research: **the** answer");
      expect(fake.posted).toEqual([{ channel: "C0GENERAL", text: "Research: *the* answer", unfurl_links: false, unfurl_media: false }]);
      expect(thread).toEqual({ chatId: "C0GENERAL", threadId: fake.postedTs[0] });
      await harness.account.send(thread, { markdown: "first finding" });
      expect(fake.posted[1]).toMatchObject({ channel: "C0GENERAL", text: "first finding", thread_ts: thread.threadId });
    });

    it("opens a new top-level thread when asked from inside a thread (Slack threads do not nest)", async () => {
      const thread = await harness.account.createThread!({ chatId: "C0GENERAL", threadId: "1700000000.000100" }, "nested?");
      expect(fake.posted[0]).not.toHaveProperty("thread_ts");
      expect(thread.threadId).not.toBe("1700000000.000100");
    });

    it("reports a channel the bot cannot post in as permanent", async () => {
      fake.failNext("chat.postMessage", { error: "not_in_channel" });
      await expect(harness.account.createThread!({ chatId: "C0OTHER" }, "title")).rejects.toBeInstanceOf(ChannelPermanentError);
    });
  });

  it("has no typing indicator (Slack bots have none in ordinary channels)", () => {
    expect(harness.account.sendTyping).toBeUndefined();
  });

  describe("resolveTarget", () => {
    it.each([
      ["channel:C0GENERAL", "C0GENERAL"],
      ["C0GENERAL", "C0GENERAL"],
      ["G0PRIVATE", "G0PRIVATE"],
      ["D0DM1", "D0DM1"],
      ["slack:channel:c0general", "C0GENERAL"],
    ])("%s → %s", async (raw, chatId) => {
      await expect(harness.account.resolveTarget(raw)).resolves.toEqual({ chatId });
      expect(fake.calls).toEqual([]);
    });

    it("opens the DM for user:<id>", async () => {
      await expect(harness.account.resolveTarget("user:U0ALICE")).resolves.toEqual({ chatId: "D0ALICE" });
      expect(fake.calls).toEqual([{ method: "conversations.open", body: { users: "U0ALICE" } }]);
    });

    it("refuses channel names, asking for the id", async () => {
      await expect(harness.account.resolveTarget("#general")).rejects.toThrow(/channel id/);
    });

    it("refuses what it does not understand", async () => {
      await expect(harness.account.resolveTarget("general")).rejects.toThrow(/channel:<C… id> or user:<U… id>/);
      await expect(harness.account.resolveTarget("channel:U0ALICE")).rejects.toThrow(/not understood/);
    });
  });

  it("describes a sender for the pairing reply", () => {
    expect(harness.account.describeSender("U0ALICE")).toBe("Your Slack user id: U0ALICE");
  });
});
