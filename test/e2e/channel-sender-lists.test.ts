import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Who may talk to the bot inside a group, end to end on all three channels: a real gateway, the
 * fake Telegram, Discord and Slack servers, and the fake model. A dropped message is seen in the
 * gateway's debug line "inbound message ignored" (naming chat and sender), an allowed one by its reply.
 */

// Discord ids are real snowflakes: discord.js only reads `<@id>` mentions of 17 to 20 digits.
const DISCORD_BOT = "200000000000000800";
const GUILD = "200000000000000900";
const GUILD_CHANNEL = "200000000000000901";
const LISTED_CHANNEL = "200000000000000902";
const D_ACCOUNT_USER = "200000000000000111";
const D_GUILD_USER = "200000000000000222";
const D_CHANNEL_USER = "200000000000000333";
/** A channel with its own `roles`, which replace the guild's `roles` there. */
const ROLE_CHANNEL = "200000000000000904";
const GUILD_ROLE = "200000000000000950";
const CHANNEL_ROLE = "200000000000000951";
const D_GUILD_ROLE_MEMBER = "200000000000000444";
const D_CHANNEL_ROLE_MEMBER = "200000000000000555";

const TG_GROUP = -100500;
const TG_LISTED_GROUP = -100600;
const TG_CLOSED_GROUP = -100700;
const TG_ACCOUNT_USER = 501;
const TG_GROUP_USER = 502;

const SLACK_CHANNEL = "C0PLAIN";
const SLACK_LISTED_CHANNEL = "C0LISTED";
const S_ACCOUNT_USER = "U0ACCOUNT";
const S_CHANNEL_USER = "U0CHANNEL";

/** Listed by name only: `@mallory` on Discord, `@umallory` on Slack (the fake's handle for `UMALLORY`), `@alice_tg` on Telegram. */
const NAMED_CHANNEL = "200000000000000903";
const D_MALLORY = "200000000000000666";
const SLACK_NAMED_CHANNEL = "C0NAMED";
const S_MALLORY = "UMALLORY";
const TG_NAMED_GROUP = -100800;
const TG_ALICE = 503;

interface Channels {
  telegram: FakeTelegram;
  discord: FakeDiscord;
  slack: FakeSlack;
  gw: GatewayProcess;
}

let model: FakeModelServer;
let telegram: FakeTelegram;
let discord: FakeDiscord;
let slack: FakeSlack;
let gw: GatewayProcess;

/** Keys laid over one channel's config by a test that needs another policy. */
type Overrides = Partial<Record<"telegram" | "discord" | "slack", Record<string, unknown>>>;

function channelsConfig(fakes: Omit<Channels, "gw">, nameMatching: boolean, overrides: Overrides = {}) {
  const byName = nameMatching ? { dangerouslyAllowNameMatching: true } : {};
  const base = {
    telegram: telegramChannelConfig(fakes.telegram, {
      requireMention: false,
      groupAllowFrom: [String(TG_ACCOUNT_USER)],
      groups: {
        [TG_GROUP]: {},
        [TG_LISTED_GROUP]: { allowFrom: [String(TG_GROUP_USER)] },
        [TG_CLOSED_GROUP]: { allowFrom: [] },
        [TG_NAMED_GROUP]: { allowFrom: ["@alice_tg"] },
      },
    }),
    discord: {
      token: fakes.discord.token,
      restApiUrl: fakes.discord.restUrl,
      typingIntervalSeconds: 0,
      requireMention: false,
      groupAllowFrom: [D_ACCOUNT_USER],
      ...byName,
      guilds: {
        [GUILD]: {
          requireMention: false,
          users: [D_GUILD_USER],
          roles: [GUILD_ROLE],
          channels: {
            [GUILD_CHANNEL]: {},
            [LISTED_CHANNEL]: { users: [D_CHANNEL_USER] },
            [NAMED_CHANNEL]: { users: ["@mallory"] },
            [ROLE_CHANNEL]: { roles: [CHANNEL_ROLE] },
          },
        },
      },
    },
    slack: {
      botToken: fakes.slack.botToken,
      appToken: fakes.slack.appToken,
      slackApiUrl: fakes.slack.apiUrl,
      requireMention: false,
      groupAllowFrom: [S_ACCOUNT_USER],
      ...byName,
      channels: { [SLACK_CHANNEL]: {}, [SLACK_LISTED_CHANNEL]: { users: [S_CHANNEL_USER] }, [SLACK_NAMED_CHANNEL]: { users: ["@umallory"] } },
    },
  };
  return {
    telegram: { ...base.telegram, ...overrides.telegram },
    discord: { ...base.discord, ...overrides.discord },
    slack: { ...base.slack, ...overrides.slack },
  };
}

/** Fresh fakes of the three platforms and a gateway connected to all of them. */
async function startChannels(options: { nameMatching: boolean; overrides?: Overrides }): Promise<Channels> {
  const telegram = await startFakeTelegram();
  const discord = await startFakeDiscord({
    botId: DISCORD_BOT,
    guilds: [
      {
        id: GUILD,
        name: "Access Guild",
        channels: [
          { id: GUILD_CHANNEL, name: "general", type: 0 },
          { id: LISTED_CHANNEL, name: "listed", type: 0 },
          { id: NAMED_CHANNEL, name: "named", type: 0 },
          { id: ROLE_CHANNEL, name: "roles", type: 0 },
        ],
        roles: [
          { id: GUILD_ROLE, name: "guild-role" },
          { id: CHANNEL_ROLE, name: "channel-role" },
        ],
      },
    ],
  });
  const slack = await startFakeSlack();
  const stateDir = makeTempDir();
  const config = fakeModelConfig(model, stateDir, { channels: channelsConfig({ telegram, discord, slack }, options.nameMatching, options.overrides), logging: { level: "debug" } });
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  await gw.waitForOutput(/channel account started/, 10_000);
  await waitUntil(() => discord.identifyCount === 1, 15_000, "the Discord IDENTIFY");
  await waitUntil(() => slack.socketConnections > 0, 15_000, "the Slack socket");
  return { telegram, discord, slack, gw };
}

async function stopChannels(channels: Partial<Channels>): Promise<void> {
  await channels.gw?.stop("SIGKILL");
  await Promise.all([channels.telegram?.close(), channels.discord?.close(), channels.slack?.close()]);
}

/** Runs `use` with fresh fakes and a gateway of its own started with these options, and stops them after. */
async function withChannels(options: Parameters<typeof startChannels>[0], use: (channels: Channels) => Promise<void>): Promise<void> {
  const started: Partial<Channels> = {};
  try {
    Object.assign(started, await startChannels(options));
    await use(started as Channels);
  } finally {
    await stopChannels(started);
  }
}

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ telegram, discord, slack, gw } = await startChannels({ nameMatching: false }));
});
afterAll(async () => {
  await stopChannels({ telegram, discord, slack, gw });
  await model?.close();
});
afterEach(() => {
  model.reset();
});

/** Resolves once the gateway has logged that it dropped this sender's message in this chat. */
function ignored(chatId: string | number, senderId: string | number, gateway = gw): Promise<string> {
  const line = new RegExp(`^(?=.*"msg":"inbound message ignored")(?=.*"chatId":"${chatId}")(?=.*"senderId":"${senderId}").*$`, "m");
  return gateway.waitForOutput(line, 10_000);
}

/** What the sender wrote: a group message reaches the model as `[Sender name] text`. */
const said = (req: Parameters<typeof lastUserText>[0]) => lastUserText(req).replace(/^\[[^\]]*\] /, "");
const telegramReplies = (chatId: number, fake = telegram) => fake.messages(chatId).map((m) => String(m.text));
const discordReplies = (channelId: string, fake = discord) => fake.messages(channelId).map((m) => m.content);
const slackReplies = (channel: string, fake = slack) => fake.posted.filter((p) => p.channel === channel).map((p) => p.text);

describe("a group's own sender list", () => {
  it("Telegram: a group's allowFrom replaces groupAllowFrom in that group (an empty one admits nobody); other groups keep groupAllowFrom", async () => {
    model.setResponder((req) => ({ text: `tg: ${said(req)}` }));
    telegram.pushMessage({ chatId: TG_CLOSED_GROUP, fromId: TG_ACCOUNT_USER, text: "account user in closed group", messageId: 1 });
    await ignored(TG_CLOSED_GROUP, TG_ACCOUNT_USER);
    telegram.pushMessage({ chatId: TG_LISTED_GROUP, fromId: TG_ACCOUNT_USER, text: "account user in listed group", messageId: 1 });
    await ignored(TG_LISTED_GROUP, TG_ACCOUNT_USER);
    telegram.pushMessage({ chatId: TG_LISTED_GROUP, fromId: TG_GROUP_USER, text: "group user in listed group", messageId: 2 });
    await telegram.waitFor(() => telegramReplies(TG_LISTED_GROUP).length === 1, 10_000);
    expect(telegramReplies(TG_LISTED_GROUP)).toEqual(["tg: group user in listed group"]);

    telegram.pushMessage({ chatId: TG_GROUP, fromId: TG_GROUP_USER, text: "group user elsewhere", messageId: 3 });
    await ignored(TG_GROUP, TG_GROUP_USER);
    telegram.pushMessage({ chatId: TG_GROUP, fromId: TG_ACCOUNT_USER, text: "account user elsewhere", messageId: 4 });
    await telegram.waitFor(() => telegramReplies(TG_GROUP).length === 1, 10_000);
    expect(telegramReplies(TG_GROUP)).toEqual(["tg: account user elsewhere"]);
    expect(chatRequests(model)).toHaveLength(2);
  });

  it("Discord: a channel's users replace its guild's users, and a guild's users replace groupAllowFrom", async () => {
    model.setResponder((req) => ({ text: `dc: ${said(req)}` }));
    const say = (channelId: string, authorId: string, content: string) =>
      discord.pushMessage({ channelId, guildId: GUILD, authorId, authorName: `user${authorId.slice(-3)}`, content });
    say(LISTED_CHANNEL, D_GUILD_USER, "guild user in listed channel");
    await ignored(LISTED_CHANNEL, D_GUILD_USER);
    say(LISTED_CHANNEL, D_ACCOUNT_USER, "account user in listed channel");
    await ignored(LISTED_CHANNEL, D_ACCOUNT_USER);
    say(LISTED_CHANNEL, D_CHANNEL_USER, "channel user in listed channel");
    await waitUntil(() => discordReplies(LISTED_CHANNEL).length === 1, 10_000, "the listed channel's reply");
    expect(discordReplies(LISTED_CHANNEL)).toEqual(["dc: channel user in listed channel"]);

    say(GUILD_CHANNEL, D_ACCOUNT_USER, "account user in guild channel");
    await ignored(GUILD_CHANNEL, D_ACCOUNT_USER);
    say(GUILD_CHANNEL, D_GUILD_USER, "guild user in guild channel");
    await waitUntil(() => discordReplies(GUILD_CHANNEL).length === 1, 10_000, "the guild channel's reply");
    expect(discordReplies(GUILD_CHANNEL)).toEqual(["dc: guild user in guild channel"]);
    expect(chatRequests(model)).toHaveLength(2);
  });

  it("Slack: a channel's users replace groupAllowFrom in that channel; other channels keep groupAllowFrom", async () => {
    model.setResponder((req) => ({ text: `sl: ${said(req)}` }));
    slack.pushMessage({ channel: SLACK_LISTED_CHANNEL, channelType: "channel", user: S_ACCOUNT_USER, text: "account user in listed channel" });
    await ignored(SLACK_LISTED_CHANNEL, S_ACCOUNT_USER);
    slack.pushMessage({ channel: SLACK_LISTED_CHANNEL, channelType: "channel", user: S_CHANNEL_USER, text: "channel user in listed channel" });
    await slack.waitFor(() => slackReplies(SLACK_LISTED_CHANNEL).length === 1, 10_000);
    expect(slackReplies(SLACK_LISTED_CHANNEL)).toEqual(["sl: channel user in listed channel"]);

    slack.pushMessage({ channel: SLACK_CHANNEL, channelType: "channel", user: S_CHANNEL_USER, text: "channel user elsewhere" });
    await ignored(SLACK_CHANNEL, S_CHANNEL_USER);
    slack.pushMessage({ channel: SLACK_CHANNEL, channelType: "channel", user: S_ACCOUNT_USER, text: "account user elsewhere" });
    await slack.waitFor(() => slackReplies(SLACK_CHANNEL).length === 1, 10_000);
    expect(slackReplies(SLACK_CHANNEL)).toEqual(["sl: account user elsewhere"]);
    expect(chatRequests(model)).toHaveLength(2);
  });
});

describe("Discord roles", () => {
  it("a channel's roles replace its guild's roles there; the guild's roles admit their members in its other channels", async () => {
    model.setResponder((req) => ({ text: `roles: ${said(req)}` }));
    const say = (channelId: string, authorId: string, roles: string[], content: string) =>
      discord.pushMessage({ channelId, guildId: GUILD, authorId, authorName: `user${authorId.slice(-3)}`, memberRoles: roles, content });
    say(ROLE_CHANNEL, D_GUILD_ROLE_MEMBER, [GUILD_ROLE], "guild role in role channel");
    await ignored(ROLE_CHANNEL, D_GUILD_ROLE_MEMBER);
    say(ROLE_CHANNEL, D_CHANNEL_ROLE_MEMBER, [CHANNEL_ROLE], "channel role in role channel");
    await waitUntil(() => discordReplies(ROLE_CHANNEL).length === 1, 10_000, "the role channel's reply");
    expect(discordReplies(ROLE_CHANNEL)).toEqual(["roles: channel role in role channel"]);

    // Other tests answer in the guild channel too: only the replies after this point count.
    const earlier = discordReplies(GUILD_CHANNEL).length;
    const newReplies = () => discordReplies(GUILD_CHANNEL).slice(earlier);
    say(GUILD_CHANNEL, D_CHANNEL_ROLE_MEMBER, [CHANNEL_ROLE], "channel role in guild channel");
    await ignored(GUILD_CHANNEL, D_CHANNEL_ROLE_MEMBER);
    say(GUILD_CHANNEL, D_GUILD_ROLE_MEMBER, [GUILD_ROLE], "guild role in guild channel");
    await waitUntil(() => newReplies().length === 1, 10_000, "the guild channel's reply");
    expect(newReplies()).toEqual(["roles: guild role in guild channel"]);
    expect(chatRequests(model)).toHaveLength(2);
  });
});

describe("name entries in allow-lists", () => {
  it("match a sender by id only: a `@name` entry does not admit whoever takes that name, and a Telegram `@username` entry is named in a start-up warning with its fix", async () => {
    model.setResponder((req) => ({ text: `named: ${said(req)}` }));
    discord.pushMessage({ channelId: NAMED_CHANNEL, guildId: GUILD, authorId: D_MALLORY, authorName: "mallory", content: "I renamed myself" });
    await ignored(NAMED_CHANNEL, D_MALLORY);
    slack.pushMessage({ channel: SLACK_NAMED_CHANNEL, channelType: "channel", user: S_MALLORY, text: "I renamed myself" });
    await ignored(SLACK_NAMED_CHANNEL, S_MALLORY);
    telegram.pushMessage({ chatId: TG_NAMED_GROUP, fromId: TG_ALICE, fromUsername: "alice_tg", text: "hello by username", messageId: 1 });
    await ignored(TG_NAMED_GROUP, TG_ALICE);
    expect(telegramReplies(TG_NAMED_GROUP)).toEqual([]);
    expect(chatRequests(model)).toHaveLength(0);
    const warning = JSON.parse(await gw.waitForOutput(/^.*@alice_tg is not a numeric.*$/m, 5_000)) as { level: number; msg: string };
    expect(warning.level).toBe(40);
    expect(warning.msg).toContain(`channels.telegram.groups.${TG_NAMED_GROUP}.allowFrom`);
    expect(warning.msg).toMatch(/not a numeric Telegram user id.*admits nobody.*numeric user id/);
  });

  it("with dangerouslyAllowNameMatching, Discord and Slack name entries match the sender's username", async () => {
    model.setResponder((req) => ({ text: `named: ${said(req)}` }));
    await withChannels({ nameMatching: true }, async ({ discord: optedDiscord, slack: optedSlack }) => {
      optedDiscord.pushMessage({ channelId: NAMED_CHANNEL, guildId: GUILD, authorId: D_MALLORY, authorName: "mallory", content: "by name on discord" });
      optedSlack.pushMessage({ channel: SLACK_NAMED_CHANNEL, channelType: "channel", user: S_MALLORY, text: "by name on slack" });
      await waitUntil(() => discordReplies(NAMED_CHANNEL, optedDiscord).length === 1, 10_000, "the Discord reply");
      await waitUntil(() => slackReplies(SLACK_NAMED_CHANNEL, optedSlack).length === 1, 10_000, "the Slack reply");
      expect(discordReplies(NAMED_CHANNEL, optedDiscord)).toEqual(["named: by name on discord"]);
      expect(slackReplies(SLACK_NAMED_CHANNEL, optedSlack)).toEqual(["named: by name on slack"]);
    });
  });
});

describe("groupPolicy: open", () => {
  it("admits senders outside groupAllowFrom (it filters only under allowlist), while a chat's own sender list still applies", async () => {
    model.setResponder((req) => ({ text: `open: ${said(req)}` }));
    const openPolicy = { groupPolicy: "open" };
    await withChannels(
      { nameMatching: false, overrides: { telegram: openPolicy, discord: openPolicy, slack: openPolicy } },
      async ({ telegram: tg, discord: dc, slack: sl, gw: openGw }) => {
        tg.pushMessage({ chatId: TG_LISTED_GROUP, fromId: TG_ACCOUNT_USER, text: "account user in listed group", messageId: 1 });
        await ignored(TG_LISTED_GROUP, TG_ACCOUNT_USER, openGw);
        sl.pushMessage({ channel: SLACK_LISTED_CHANNEL, channelType: "channel", user: S_ACCOUNT_USER, text: "account user in listed channel" });
        await ignored(SLACK_LISTED_CHANNEL, S_ACCOUNT_USER, openGw);
        dc.pushMessage({ channelId: LISTED_CHANNEL, guildId: GUILD, authorId: D_GUILD_USER, authorName: "guilduser", content: "guild user in listed channel" });
        await ignored(LISTED_CHANNEL, D_GUILD_USER, openGw);

        tg.pushMessage({ chatId: TG_GROUP, fromId: TG_GROUP_USER, text: "outside groupAllowFrom on telegram", messageId: 2 });
        sl.pushMessage({ channel: SLACK_CHANNEL, channelType: "channel", user: S_CHANNEL_USER, text: "outside groupAllowFrom on slack" });
        await tg.waitFor(() => telegramReplies(TG_GROUP, tg).length === 1, 10_000);
        await sl.waitFor(() => slackReplies(SLACK_CHANNEL, sl).length === 1, 10_000);
        expect(telegramReplies(TG_GROUP, tg)).toEqual(["open: outside groupAllowFrom on telegram"]);
        expect(slackReplies(SLACK_CHANNEL, sl)).toEqual(["open: outside groupAllowFrom on slack"]);
        expect(chatRequests(model)).toHaveLength(2);
      },
    );
  });
});

describe('Telegram groups["*"] under allowlist', () => {
  it("admits nobody while no sender list is set (the drop names groupAllowFrom and the group's allowFrom); a group listed by id needs none", async () => {
    model.setResponder((req) => ({ text: `wild: ${said(req)}` }));
    const wildcardOnly = { groupAllowFrom: undefined, groups: { "*": {}, [TG_LISTED_GROUP]: {} } };
    await withChannels({ nameMatching: false, overrides: { telegram: wildcardOnly } }, async ({ telegram: tg, gw: wildGw }) => {
      tg.pushMessage({ chatId: TG_GROUP, fromId: TG_GROUP_USER, text: "through the wildcard", messageId: 1 });
      const drop = await ignored(TG_GROUP, TG_GROUP_USER, wildGw);
      expect(drop).toContain("set groupAllowFrom or the group's allowFrom");

      tg.pushMessage({ chatId: TG_LISTED_GROUP, fromId: TG_GROUP_USER, text: "in a group listed by id", messageId: 2 });
      await tg.waitFor(() => telegramReplies(TG_LISTED_GROUP, tg).length === 1, 10_000);
      expect(telegramReplies(TG_LISTED_GROUP, tg)).toEqual(["wild: in a group listed by id"]);
      expect(chatRequests(model)).toHaveLength(1);
    });
  });
});

describe("Telegram without a groups map under allowlist", () => {
  it("admits the senders of groupAllowFrom in any group and drops everyone else", async () => {
    model.setResponder((req) => ({ text: `nomap: ${said(req)}` }));
    const anyGroup = -100900;
    await withChannels({ nameMatching: false, overrides: { telegram: { groups: undefined } } }, async ({ telegram: tg, gw: noMapGw }) => {
      tg.pushMessage({ chatId: anyGroup, fromId: TG_GROUP_USER, text: "outside groupAllowFrom", messageId: 1 });
      await ignored(anyGroup, TG_GROUP_USER, noMapGw);

      tg.pushMessage({ chatId: anyGroup, fromId: TG_ACCOUNT_USER, text: "in groupAllowFrom", messageId: 2 });
      await tg.waitFor(() => telegramReplies(anyGroup, tg).length === 1, 10_000);
      expect(telegramReplies(anyGroup, tg)).toEqual(["nomap: in groupAllowFrom"]);
      expect(chatRequests(model)).toHaveLength(1);
    });
  });
});
