import { describe, expect, it } from "vitest";
import { decideAccess, mentionPatternsFor, wasMentioned } from "../../../../src/channels/access/access-policy.js";
import { implicitMentionsFor } from "../../../../src/channels/access/implicit-mentions.js";
import { validateConfig } from "../../../../src/config/validate.js";
import { allowListMatches, commandsAllowed, isOwner } from "../../../../src/channels/access/allow-list.js";
import type { InboundMessage } from "../../../../src/channels/types.js";

const dm: InboundMessage = { messageId: "1", chatType: "direct", chatId: "42", senderId: "42", text: "hi", timestamp: 0 };
const group: InboundMessage = { messageId: "2", chatType: "group", chatId: "-100", senderId: "42", text: "hi", timestamp: 0 };

describe("DM access", () => {
  it("pairing (the default) offers a code to strangers and lets allowFrom and approved pairings in", () => {
    expect(decideAccess({ channel: "telegram", account: {}, message: dm, pairedSenders: [] }).decision).toBe("pair");
    expect(decideAccess({ channel: "telegram", account: { allowFrom: ["tg:42"] }, message: dm, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "telegram", account: {}, message: dm, pairedSenders: ["42"] }).decision).toBe("allow");
  });

  it("allowlist drops strangers silently; open lets anyone in; disabled nobody", () => {
    expect(decideAccess({ channel: "telegram", account: { dmPolicy: "allowlist", allowFrom: ["7"] }, message: dm, pairedSenders: [] }).decision).toBe("drop");
    expect(decideAccess({ channel: "telegram", account: { dmPolicy: "open" }, message: dm, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "telegram", account: { dmPolicy: "disabled", allowFrom: ["42"] }, message: dm, pairedSenders: [] }).decision).toBe("drop");
  });
});

describe("group access", () => {
  it("allowlist without a groups map admits no group without a sender list; '*' with a sender list opens them with mention gating on by default", () => {
    expect(decideAccess({ channel: "telegram", account: {}, message: group, pairedSenders: [] })).toMatchObject({
      decision: "drop",
      reason: expect.stringContaining("set groupAllowFrom"),
    });
    expect(decideAccess({ channel: "slack", account: { groupAllowFrom: ["42"] }, message: { ...group, chatType: "channel", chatId: "C1" }, pairedSenders: [] }).decision).toBe(
      "drop",
    );
    expect(decideAccess({ channel: "telegram", account: { groupAllowFrom: ["42"], groups: { "*": {} } }, message: group, pairedSenders: [] })).toMatchObject({
      decision: "allow",
      entry: {},
      requireMention: true,
    });
    expect(decideAccess({ channel: "telegram", account: { groups: { "-100": { requireMention: false } } }, message: group, pairedSenders: [] })).toMatchObject({
      decision: "allow",
      requireMention: false,
    });
  });

  it("groupPolicy open needs no map and ignores groupAllowFrom; a group's own list still applies, and DM pairings never grant group access", () => {
    expect(decideAccess({ channel: "telegram", account: { groupPolicy: "open" }, message: group, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "telegram", account: { groupPolicy: "open", groupAllowFrom: ["7"] }, message: group, pairedSenders: [] }).decision).toBe("allow");
    const ownList = { groupPolicy: "open", groups: { "-100": { allowFrom: ["7"] } } };
    expect(decideAccess({ channel: "telegram", account: ownList, message: group, pairedSenders: ["42"] }).decision).toBe("drop");
  });

  it("Telegram under allowlist with no groups map (or an empty one) admits the account's group senders in any group, and nobody else", () => {
    const decide = (account: Record<string, unknown>, senderId = "42") => decideAccess({ channel: "telegram", account, message: { ...group, senderId }, pairedSenders: [] });
    expect(decide({ groupAllowFrom: ["42"] })).toMatchObject({ decision: "allow", requireMention: true });
    expect(decide({ groupAllowFrom: ["42"], groups: {} }).decision).toBe("allow");
    expect(decide({ groupAllowFrom: ["42"] }, "7")).toMatchObject({ decision: "drop", reason: "sender 7 is not allowed in this group" });
    expect(decide({ allowFrom: ["42"] }).decision).toBe("allow");
    expect(decide({ groupAllowFrom: [] }).decision).toBe("drop");
  });

  it("Telegram '*' under allowlist admits nobody without a sender list; a group listed by id needs none; open needs none", () => {
    const decide = (account: Record<string, unknown>) => decideAccess({ channel: "telegram", account, message: group, pairedSenders: [] });
    expect(decide({ groups: { "*": {} } })).toMatchObject({ decision: "drop", reason: expect.stringContaining("set groupAllowFrom or the group's allowFrom") });
    expect(decide({ groupAllowFrom: [], groups: { "*": {} } }).decision).toBe("drop");
    expect(decide({ groups: { "*": { allowFrom: ["42"] } } }).decision).toBe("allow");
    expect(decide({ groups: { "*": {}, "-100": {} } }).decision).toBe("allow");
    expect(decide({ groupPolicy: "open", groups: { "*": {} } }).decision).toBe("allow");
    // Telegram's groupAllowFrom falls back to the DM allowFrom of the config (not to pairings).
    expect(decide({ allowFrom: ["42"], groups: { "*": {} } }).decision).toBe("allow");
    expect(decide({ allowFrom: ["7"], groups: { "-100": {} } }).decision).toBe("drop");
    expect(decideAccess({ channel: "telegram", account: { groups: { "*": {} } }, message: group, pairedSenders: ["42"] }).decision).toBe("drop");
    expect(decideAccess({ channel: "slack", account: { channels: { "*": {} } }, message: { ...group, chatType: "channel", chatId: "C1" }, pairedSenders: [] }).decision).toBe(
      "allow",
    );
  });

  it("Discord: a guild without channels allows all of them; listing channels makes it an allowlist; roles admit members", () => {
    const msg: InboundMessage = { ...group, chatType: "channel", chatId: "c1", guildId: "g1", memberRoleIds: ["r1"] };
    expect(decideAccess({ channel: "discord", account: { guilds: { g1: {} } }, message: msg, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "discord", account: { guilds: { g1: { channels: { c2: {} } } } }, message: msg, pairedSenders: [] }).decision).toBe("drop");
    expect(decideAccess({ channel: "discord", account: { guilds: { g1: { roles: ["r1"], users: ["9"] } } }, message: msg, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "discord", account: { guilds: { g1: { roles: ["r2"], users: ["9"] } } }, message: msg, pairedSenders: [] }).decision).toBe("drop");
  });

  it("a chat's own sender list replaces groupAllowFrom (and a Discord channel's replaces its guild's)", () => {
    const decide = (channel: string, account: Record<string, unknown>, message: InboundMessage) => decideAccess({ channel, account, message, pairedSenders: [] }).decision;
    const topic = { ...group, threadId: "7" };
    const telegram = { groupAllowFrom: ["42"], groups: { "-100": { allowFrom: ["7"], topics: { "7": { allowFrom: ["42"] } } } } };
    expect(decide("telegram", telegram, group)).toBe("drop");
    expect(decide("telegram", telegram, topic)).toBe("allow");
    expect(decide("telegram", { groupAllowFrom: ["42"], groups: { "-100": { allowFrom: [] } } }, group)).toBe("drop");

    const inChannel: InboundMessage = { ...group, chatType: "channel", chatId: "c1", guildId: "g1", memberRoleIds: ["r1"] };
    const guild = (channelEntry: Record<string, unknown>, roles: string[] = []) => ({
      groupAllowFrom: ["42"],
      guilds: { g1: { users: ["42"], roles, channels: { c1: channelEntry } } },
    });
    expect(decide("discord", guild({}), inChannel)).toBe("allow");
    expect(decide("discord", guild({ users: ["9"] }), inChannel)).toBe("drop");
    expect(decide("discord", guild({ users: [] }), inChannel)).toBe("drop");
    expect(decide("discord", guild({ users: [] }, ["r1"]), inChannel)).toBe("allow");
    expect(decide("discord", { groupAllowFrom: ["42"], guilds: { g1: { users: ["9"] } } }, inChannel)).toBe("drop");
    // A channel's roles replace its guild's roles there; `roles: []` admits no role.
    expect(decide("discord", guild({ users: ["9"], roles: ["r2"] }, ["r1"]), inChannel)).toBe("drop");
    expect(decide("discord", guild({ users: ["9"], roles: ["r1"] }, ["r2"]), inChannel)).toBe("allow");
    expect(decide("discord", { guilds: { g1: { roles: ["r1"], channels: { c1: { roles: [] } } } } }, inChannel)).toBe("drop");
    expect(decide("discord", { guilds: { g1: { roles: [], channels: { c1: {} } } } }, inChannel)).toBe("allow");

    const slackChannel: InboundMessage = { ...group, chatType: "channel", chatId: "C1" };
    expect(decide("slack", { groupAllowFrom: ["42"], channels: { C1: { users: ["9"] } } }, slackChannel)).toBe("drop");
    expect(decide("slack", { groupAllowFrom: ["9"], channels: { C1: { users: ["42"] } } }, slackChannel)).toBe("allow");
    expect(decide("slack", { groupAllowFrom: ["42"], channels: { C1: { users: [] } } }, slackChannel)).toBe("allow");
  });

  it("Telegram forum topics inherit their group and may override it", () => {
    const topic = { ...group, threadId: "7" };
    const account = { groups: { "-100": { requireMention: true, topics: { "7": { requireMention: false, agentId: "coder" } } } } };
    expect(decideAccess({ channel: "telegram", account, message: topic, pairedSenders: [] })).toMatchObject({
      decision: "allow",
      requireMention: false,
      entry: { agentId: "coder" },
    });
  });
});

describe("mentions and owners", () => {
  it("a native mention, a reply to the bot, a thread the bot posted in or a pattern counts; a broken pattern is ignored", () => {
    const patterns = (list: string[]) => ({ patterns: list, flags: "i" });
    const all = { replyToBot: true, threadParticipation: true };
    expect(wasMentioned({ ...group, mentionedBot: true }, patterns([]), all)).toBe(true);
    expect(wasMentioned({ ...group, replyToBot: true }, patterns([]), all)).toBe(true);
    expect(wasMentioned({ ...group, botInThread: true }, patterns([]), all)).toBe(true);
    expect(wasMentioned({ ...group, text: "Claw, help" }, patterns(["^claw"]), all)).toBe(true);
    expect(wasMentioned({ ...group, text: "hello" }, patterns(["(", "^claw"]), all)).toBe(false);
    const none = { replyToBot: false, threadParticipation: false };
    expect(wasMentioned({ ...group, replyToBot: true, botInThread: true }, patterns([]), none)).toBe(false);
    expect(wasMentioned({ ...group, mentionedBot: true }, patterns([]), none)).toBe(true);
  });

  it("implicitMentions: flag by flag from the account, the channel, channels.defaults; read on Slack only", () => {
    const { config } = validateConfig(
      {
        channels: {
          defaults: { implicitMentions: { replyToBot: false, threadParticipation: false } },
          slack: { implicitMentions: { threadParticipation: true }, accounts: { work: { implicitMentions: { replyToBot: true } } } },
        },
      },
      {},
    );
    expect(implicitMentionsFor(config, "slack", "default")).toEqual({ replyToBot: false, threadParticipation: true });
    expect(implicitMentionsFor(config, "slack", "work")).toEqual({ replyToBot: true, threadParticipation: true });
    expect(implicitMentionsFor(config, "telegram", "default")).toEqual({ replyToBot: true, threadParticipation: true });
  });

  it("mention patterns: the account's, else the agent's groupChat, else messages.groupChat, else the agent's name and emoji", () => {
    const agent = { groupChat: { mentionPatterns: ["^ops"] }, identity: { name: "Claw", emoji: "🦞" } };
    expect(mentionPatternsFor(["^acct"], agent, ["^global"])).toEqual({ patterns: ["^acct"], flags: "i" });
    expect(mentionPatternsFor(undefined, agent, ["^global"])).toEqual({ patterns: ["^ops"], flags: "i" });
    expect(mentionPatternsFor(undefined, { identity: agent.identity }, ["^global"])).toEqual({ patterns: ["^global"], flags: "i" });
    const derived = mentionPatternsFor(undefined, { identity: { name: "Mr. Claw", emoji: "🦞" } }, undefined);
    const mentions = (text: string) => wasMentioned({ ...group, text }, derived, { replyToBot: true, threadParticipation: true });
    expect(["mr. claw, help", "hey @Mr.  Claw", "🦞 are you there"].map(mentions)).toEqual([true, true, true]);
    expect(["mr. clawson", "xmr. claw", "nobody"].map(mentions)).toEqual([false, false, false]);
    expect(mentionPatternsFor(undefined, undefined, undefined)).toEqual({ patterns: [], flags: "iu" });
  });

  it("ownerAllowFrom entries name their channel", () => {
    expect(isOwner(["telegram:42"], "telegram", "42")).toBe(true);
    expect(isOwner(["tg:42"], "telegram", "42")).toBe(true);
    expect(isOwner(["telegram:42"], "discord", "42")).toBe(false);
    expect(isOwner(["42"], "discord", "42")).toBe(true);
    expect(isOwner([], "telegram", "42")).toBe(false);
  });
});

describe("allow-list entries", () => {
  it("Telegram matches ids only, also with dangerouslyAllowNameMatching; Discord and Slack match ids only unless dangerouslyAllowNameMatching", () => {
    const mallory = { id: "666", username: "Mallory" };
    expect(allowListMatches("telegram", ["@mallory", "mallory"], mallory)).toBe(false);
    expect(allowListMatches("telegram", ["@mallory"], mallory, { allowNameMatching: true })).toBe(false);
    expect(allowListMatches("telegram", ["tg:666"], mallory)).toBe(true);
    for (const channel of ["discord", "slack"]) {
      expect(allowListMatches(channel, ["@mallory", "mallory", "#Mallory"], mallory), channel).toBe(false);
      expect(allowListMatches(channel, ["user:666"], mallory), channel).toBe(true);
      expect(allowListMatches(channel, ["@Mallory"], mallory, { allowNameMatching: true }), channel).toBe(true);
      expect(allowListMatches(channel, ["mallory"], mallory, { allowNameMatching: true }), channel).toBe(true);
      expect(allowListMatches(channel, ["@eve"], mallory, { allowNameMatching: true }), channel).toBe(false);
    }
    expect(allowListMatches("discord", ["<@!666>"], mallory)).toBe(true);
    expect(allowListMatches("discord", ["mallory#0001"], { id: "1", username: "mallory#0001" }, { allowNameMatching: true })).toBe(true);
  });
});

describe("commands.allowFrom", () => {
  it("the channel's list, else the * list; * in a list lets everyone; no list lets whoever may talk", () => {
    const allowFrom = { telegram: ["telegram:111", "tg:222"], "*": ["333"] };
    expect(commandsAllowed(allowFrom, "telegram", { id: "111" })).toBe(true);
    expect(commandsAllowed(allowFrom, "telegram", { id: "222" })).toBe(true);
    expect(commandsAllowed(allowFrom, "telegram", { id: "333" })).toBe(false);
    expect(commandsAllowed(allowFrom, "discord", { id: "333" })).toBe(true);
    expect(commandsAllowed(allowFrom, "discord", { id: "111" })).toBe(false);
    expect(commandsAllowed({ slack: ["*"] }, "slack", { id: "U123" })).toBe(true);
    expect(commandsAllowed({ slack: [] }, "slack", { id: "U123" })).toBe(false);
    expect(commandsAllowed(undefined, "slack", { id: "U123" })).toBe(true);
    expect(commandsAllowed({ discord: ["1"] }, "slack", { id: "U123" })).toBe(true);
  });
});

describe("access groups", () => {
  const accessGroups = {
    operators: { members: { telegram: ["tg:111"], discord: ["discord:222"], "*": ["333"] } },
    open: { members: { telegram: ["*"] } },
  };

  it("accessGroup:<name> stands for the group's members on the channel and under *, matched like the list's own entries", () => {
    expect(allowListMatches("telegram", ["accessGroup:operators"], { id: "111" }, { accessGroups })).toBe(true);
    expect(allowListMatches("telegram", ["accessGroup:operators"], { id: "333" }, { accessGroups })).toBe(true);
    expect(allowListMatches("telegram", ["accessGroup:operators"], { id: "222" }, { accessGroups })).toBe(false);
    expect(allowListMatches("discord", ["accessgroup:operators", "444"], { id: "222" }, { accessGroups })).toBe(true);
    expect(allowListMatches("discord", ["accessgroup:operators", "444"], { id: "444" }, { accessGroups })).toBe(true);
  });

  it("an undefined group, a * among members, or no access groups at all admit nobody", () => {
    expect(allowListMatches("telegram", ["accessGroup:missing"], { id: "111" }, { accessGroups })).toBe(false);
    expect(allowListMatches("telegram", ["accessGroup:open"], { id: "999" }, { accessGroups })).toBe(false);
    expect(allowListMatches("telegram", ["accessGroup:operators"], { id: "111" })).toBe(false);
  });

  it("reaches DM, group and command lists", () => {
    const account = { dmPolicy: "allowlist", allowFrom: ["accessGroup:operators"], groupPolicy: "allowlist", groupAllowFrom: ["accessGroup:operators"] };
    const from = (senderId: string) => ({ senderId });
    expect(decideAccess({ channel: "telegram", account, message: { ...dm, ...from("111") }, pairedSenders: [], accessGroups }).decision).toBe("allow");
    expect(decideAccess({ channel: "telegram", account, message: { ...dm, ...from("999") }, pairedSenders: [], accessGroups }).decision).toBe("drop");
    expect(decideAccess({ channel: "telegram", account, message: { ...group, ...from("333") }, pairedSenders: [], accessGroups }).decision).toBe("allow");
    expect(decideAccess({ channel: "telegram", account, message: { ...group, ...from("999") }, pairedSenders: [], accessGroups }).decision).toBe("drop");
    expect(commandsAllowed({ telegram: ["accessGroup:operators"] }, "telegram", { id: "111" }, accessGroups)).toBe(true);
    expect(commandsAllowed({ telegram: ["accessGroup:operators"] }, "telegram", { id: "999" }, accessGroups)).toBe(false);
  });
});

describe("allowlisted (contextVisibility)", () => {
  const allowed = (decision: ReturnType<typeof decideAccess>) => (decision.decision === "allow" ? decision.allowlisted : () => false);

  it("in a group: the sender list that admitted the message; under open, groupAllowFrom when set, else nobody", () => {
    const listed = allowed(decideAccess({ channel: "telegram", account: { groupAllowFrom: ["42", "7"] }, message: group, pairedSenders: [] }));
    expect([listed("7"), listed("8")]).toEqual([true, false]);
    const open = allowed(decideAccess({ channel: "telegram", account: { groupPolicy: "open", groupAllowFrom: ["7"] }, message: group, pairedSenders: [] }));
    expect([open("7"), open("42")]).toEqual([true, false]);
    const openUnlisted = allowed(decideAccess({ channel: "discord", account: { groupPolicy: "open" }, message: { ...group, guildId: "g" }, pairedSenders: [] }));
    expect(openUnlisted("42")).toBe(false);
  });

  it("in a DM: allowFrom and the approved pairings", () => {
    const dmList = allowed(decideAccess({ channel: "telegram", account: { allowFrom: ["7"] }, message: { ...dm, senderId: "7" }, pairedSenders: ["9"] }));
    expect([dmList("7"), dmList("9"), dmList("8")]).toEqual([true, true, false]);
  });
});

describe("ignoreOtherMentions (Discord)", () => {
  const inGuild = { ...group, chatType: "channel", chatId: "c1", guildId: "g1" } as InboundMessage;
  const account = (channelFlag?: boolean) => ({
    groupPolicy: "open",
    guilds: { g1: { ignoreOtherMentions: true, channels: { c1: { ...(channelFlag === undefined ? {} : { ignoreOtherMentions: channelFlag }) } } } },
  });

  it("drops a message addressed to someone else unless it mentions the bot; a channel's own flag wins over its guild's", () => {
    expect(decideAccess({ channel: "discord", account: account(), message: { ...inGuild, addressedToOther: true }, pairedSenders: [] })).toMatchObject({
      decision: "drop",
      reason: expect.stringContaining("ignoreOtherMentions"),
    });
    expect(decideAccess({ channel: "discord", account: account(), message: { ...inGuild, addressedToOther: true, mentionedBot: true }, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "discord", account: account(), message: inGuild, pairedSenders: [] }).decision).toBe("allow");
    expect(decideAccess({ channel: "discord", account: account(false), message: { ...inGuild, addressedToOther: true }, pairedSenders: [] }).decision).toBe("allow");
  });
});

describe("a Telegram group's own groupPolicy", () => {
  const account = { groupPolicy: "allowlist", groupAllowFrom: ["42"], groups: { "-100": { groupPolicy: "open" }, "-200": {}, "-300": { groupPolicy: "disabled" } } };
  const from = (chatId: string, senderId: string) => decideAccess({ channel: "telegram", account, message: { ...group, chatId, senderId }, pairedSenders: [] });

  it("wins over the account's in that group: open drops the sender list, disabled blocks it", () => {
    expect(from("-100", "7").decision).toBe("allow");
    expect(from("-200", "7").decision).toBe("drop");
    expect(from("-200", "42").decision).toBe("allow");
    expect(from("-300", "42")).toMatchObject({ decision: "drop", reason: "group -300 is disabled by its own groupPolicy" });
  });
});
