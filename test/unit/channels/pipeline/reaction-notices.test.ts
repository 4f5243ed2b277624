import { describe, expect, it } from "vitest";
import { reactionContextKey, reactionNoticeText, reactionNotifies } from "../../../../src/channels/dispatch/reaction-notices.js";
import type { InboundReaction } from "../../../../src/channels/types.js";

const reaction = (over: Partial<InboundReaction> = {}): InboundReaction => ({
  chatType: "group",
  chatId: "C1",
  messageId: "m1",
  senderId: "U1",
  emoji: "thumbsup",
  ...over,
});

const notifies = (channel: string, account: Record<string, unknown>, r: InboundReaction) => reactionNotifies(channel, account, r, undefined);

describe("reaction notification modes", () => {
  it("own by default on every platform: only reactions to the bot's messages", () => {
    for (const channel of ["telegram", "discord", "slack"]) {
      expect(notifies(channel, {}, reaction({ guildId: "G1", onBotMessage: true }))).toBe(true);
      expect(notifies(channel, {}, reaction({ guildId: "G1" }))).toBe(false);
      expect(notifies(channel, {}, reaction({ guildId: "G1", onBotMessage: false }))).toBe(false);
    }
  });

  it("off and all", () => {
    expect(notifies("telegram", { reactionNotifications: "off" }, reaction({ onBotMessage: true }))).toBe(false);
    expect(notifies("telegram", { reactionNotifications: "all" }, reaction())).toBe(true);
    expect(notifies("slack", { reactionNotifications: "all" }, reaction())).toBe(true);
  });

  it("Discord reads the guild's entry (then '*'); allowlist means the guild's users; a DM takes own", () => {
    const account = { guilds: { G1: { reactionNotifications: "allowlist", users: ["U1"] }, "*": { reactionNotifications: "all" } } };
    expect(notifies("discord", account, reaction({ guildId: "G1", senderId: "U1" }))).toBe(true);
    expect(notifies("discord", account, reaction({ guildId: "G1", senderId: "U2", onBotMessage: true }))).toBe(false);
    expect(notifies("discord", account, reaction({ guildId: "G9", senderId: "U2" }))).toBe(true);
    expect(notifies("discord", account, reaction({ chatType: "direct", senderId: "U2" }))).toBe(false);
    expect(notifies("discord", account, reaction({ chatType: "direct", senderId: "U2", onBotMessage: true }))).toBe(true);
  });

  it("Slack allowlist means reactionAllowlist", () => {
    const account = { reactionNotifications: "allowlist", reactionAllowlist: ["U7"] };
    expect(notifies("slack", account, reaction({ senderId: "U7" }))).toBe(true);
    expect(notifies("slack", account, reaction({ senderId: "U8", onBotMessage: true }))).toBe(false);
  });
});

describe("reaction notice text", () => {
  it("names the emoji, the person and the message, as OpenClaw words it", () => {
    expect(reactionNoticeText("telegram", reaction({ emoji: "👍", senderName: "Alice", senderUsername: "alice", messageId: "42" }))).toBe(
      "Telegram reaction added: 👍 by Alice (@alice) on msg 42",
    );
    expect(reactionNoticeText("telegram", reaction({ emoji: "👍", senderId: "7", messageId: "42" }))).toBe("Telegram reaction added: 👍 by id:7 on msg 42");
    expect(reactionNoticeText("discord", reaction({ emoji: "✅", senderName: "Bo", guildId: "G1", chatName: "overview", messageId: "99" }))).toBe(
      "Discord reaction added: ✅ by Bo on G1 #overview msg 99",
    );
    expect(reactionNoticeText("slack", reaction({ emoji: "thumbsup", senderUsername: "cy", messageId: "1.2" }))).toBe("Slack reaction added: :thumbsup: by @cy on msg 1.2");
  });

  it("one context key per person, emoji and message", () => {
    expect(reactionContextKey("slack", reaction())).toBe("slack:reaction:add:C1:m1:U1:thumbsup");
    expect(reactionContextKey("slack", reaction({ emoji: "fire" }))).not.toBe(reactionContextKey("slack", reaction()));
  });
});
