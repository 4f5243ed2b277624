import { describe, expect, it } from "vitest";
import { chatToolRule, senderRuleKey, senderToolRule } from "../../../../src/channels/access/chat-tool-rules.js";
import type { InboundMessage } from "../../../../src/channels/types.js";
import type { OpenClawConfig } from "../../../../src/config/index.js";

const ALICE = { channel: "telegram", id: "111", username: "Alice_Bot", name: "Alice Example" };
const group = (over: Partial<InboundMessage> = {}): InboundMessage => ({ messageId: "1", chatType: "group", chatId: "-100", senderId: "111", text: "hi", timestamp: 0, ...over });

describe("senderRuleKey", () => {
  it("tries channel:, id:, username:, name:, then *; an unprefixed key is an id", () => {
    const rules = { "*": {}, "name:alice example": {}, "username:@alice_bot": {}, "id:111": {}, "channel:telegram:111": {} };
    expect(senderRuleKey(rules, ALICE)).toBe("channel:telegram:111");
    expect(senderRuleKey({ ...rules, "channel:telegram:111": undefined as never }, ALICE)).toBe("channel:telegram:111");
    const { "channel:telegram:111": _c, ...noChannel } = rules;
    expect(senderRuleKey(noChannel, ALICE)).toBe("id:111");
    const { "id:111": _i, ...noId } = noChannel;
    expect(senderRuleKey(noId, ALICE)).toBe("username:@alice_bot");
    const { "username:@alice_bot": _u, ...noUsername } = noId;
    expect(senderRuleKey(noUsername, ALICE)).toBe("name:alice example");
    expect(senderRuleKey({ "*": {} }, ALICE)).toBe("*");
    expect(senderRuleKey({ "tg:111": {} }, ALICE)).toBe("tg:111");
    expect(senderRuleKey({ "channel:discord:111": {}, "id:222": {} }, ALICE)).toBeUndefined();
  });
});

describe("chatToolRule in a Telegram DM (channels.telegram.direct)", () => {
  const dm = (chatId: string): InboundMessage => ({ messageId: "1", chatType: "direct", chatId, senderId: chatId, text: "hi", timestamp: 0 });
  const direct = {
    direct: {
      "*": { tools: { deny: ["write", "edit"] } },
      "603767951": { tools: {} },
      "111": { toolsBySender: { "id:111": { deny: ["exec"] } }, tools: { deny: ["read"] } },
    },
  };

  it("the DM's own entry replaces the * entry whole, also when it sets nothing; its toolsBySender match wins over its tools", () => {
    expect(chatToolRule("telegram", direct, dm("42"), { channel: "telegram", id: "42" })).toEqual({ source: 'channels.telegram.direct["*"].tools', deny: ["write", "edit"] });
    expect(chatToolRule("telegram", direct, dm("603767951"), { channel: "telegram", id: "603767951" })).toEqual({ source: "channels.telegram.direct.603767951.tools" });
    expect(chatToolRule("telegram", direct, dm("111"), ALICE)).toEqual({ source: 'channels.telegram.direct.111.toolsBySender["id:111"]', deny: ["exec"] });
  });

  it("no direct map, or another channel's DM: no chat rule", () => {
    expect(chatToolRule("telegram", {}, dm("42"), { channel: "telegram", id: "42" })).toBeUndefined();
    expect(chatToolRule("discord", direct, dm("42"), { channel: "discord", id: "42" })).toBeUndefined();
  });
});

describe("chatToolRule", () => {
  const telegram = {
    groups: {
      "*": { tools: { deny: ["exec"] } },
      "-100": {
        tools: { deny: ["exec", "write"] },
        toolsBySender: { "id:111": { alsoAllow: ["exec"] } },
        topics: { "7": { tools: { allow: ["read"] } } },
      },
      "-200": { requireMention: false },
    },
  };

  it("the most specific place with a sender match or a rule wins, then the * entry", () => {
    expect(chatToolRule("telegram", telegram, group(), ALICE)).toEqual({ source: 'channels.telegram.groups.-100.toolsBySender["id:111"]', alsoAllow: ["exec"] });
    expect(chatToolRule("telegram", telegram, group({ senderId: "999" }), { ...ALICE, id: "999" })).toEqual({
      source: "channels.telegram.groups.-100.tools",
      deny: ["exec", "write"],
    });
    expect(chatToolRule("telegram", telegram, group({ threadId: "7" }), ALICE)).toEqual({ source: "channels.telegram.groups.-100.topics.7.tools", allow: ["read"] });
    expect(chatToolRule("telegram", telegram, group({ chatId: "-200" }), ALICE)).toEqual({ source: 'channels.telegram.groups["*"].tools', deny: ["exec"] });
    expect(chatToolRule("telegram", telegram, { ...group(), chatType: "direct" }, ALICE)).toBeUndefined();
  });

  it("Discord: the channel (or a thread's parent), its guild, then the * entries; Slack: the channel, then *", () => {
    const discord = { guilds: { g1: { tools: { deny: ["browser"] }, channels: { c1: { tools: { deny: ["exec"] } } } } } };
    const bob = { channel: "discord", id: "5" };
    expect(chatToolRule("discord", discord, group({ guildId: "g1", chatId: "c1", senderId: "5" }), bob)?.source).toBe("channels.discord.guilds.g1.channels.c1.tools");
    expect(chatToolRule("discord", discord, group({ guildId: "g1", chatId: "t9", parentChatId: "c1", senderId: "5" }), bob)?.source).toBe(
      "channels.discord.guilds.g1.channels.c1.tools",
    );
    expect(chatToolRule("discord", discord, group({ guildId: "g1", chatId: "c2", senderId: "5" }), bob)?.source).toBe("channels.discord.guilds.g1.tools");
    const slack = { channels: { "*": { toolsBySender: { "*": { deny: ["exec"] } } } } };
    expect(chatToolRule("slack", slack, group({ chatId: "C1", senderId: "U1" }), { channel: "slack", id: "U1" })).toEqual({
      source: 'channels.slack.channels["*"].toolsBySender["*"]',
      deny: ["exec"],
    });
  });
});

describe("senderToolRule", () => {
  it("the agent's match replaces the global one; without it the global match applies", () => {
    const config = {
      tools: { toolsBySender: { "*": { deny: ["exec"] } } },
      agents: { defaults: {}, entries: { ops: { tools: { toolsBySender: { "id:111": {} } } } } },
    } as unknown as OpenClawConfig;
    expect(senderToolRule(config, "ops", ALICE)).toEqual({ source: 'agents.entries.ops.tools.toolsBySender["id:111"]' });
    expect(senderToolRule(config, "ops", { ...ALICE, id: "2" })).toEqual({ source: 'tools.toolsBySender["*"]', deny: ["exec"] });
    expect(senderToolRule({ agents: { defaults: {} } } as unknown as OpenClawConfig, "main", ALICE)).toBeUndefined();
  });
});
