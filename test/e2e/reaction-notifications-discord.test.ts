import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord, waitFor, type FakeDiscord } from "../fakes/discord-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";

/**
 * Discord reactions through a real gateway and discord.js against the fake Discord (which, as
 * Discord, sends reactions only to a client that identified with the reaction intents): a reaction
 * someone may reach the agent with becomes a `System:` line in front of their session's next
 * message, once. `own` (the default) knows the bot's messages from `message_author_id`;
 * `allowlist` reports the guild's `users` only; a DM takes `own`.
 *
 * The plugin hands a channel's reaction over before the message after it in that channel, so a
 * reaction pushed before a message is decided (and its notice on disk) before the message is taken in.
 */

// Real snowflakes: discord.js only reads ids of 17 to 20 digits.
const BOT = "100000000000000800";
const GUILD = "100000000000000900";
const GENERAL = "100000000000000901";
const MOD_ROLE = "100000000000000950";
const OWNER = "100000000000000111";
const MODERATOR = "100000000000000333";
const STRANGER = "100000000000000222";
const OWNER_DM = "100000000000000711";

const SYSTEM_LINE = /^System: \[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GMT[^\]]*\] /;
const servers = useFakeServers();
let discord: FakeDiscord | undefined;

afterEach(async () => {
  await discord?.close();
  discord = undefined;
});

/** A fake Discord with one guild and its #general, and a gateway whose Discord account has `guild` as that guild's entry. */
async function start(guild: Record<string, unknown>): Promise<FakeDiscord> {
  discord = await startFakeDiscord({
    botId: BOT,
    botName: "clawbot",
    guilds: [{ id: GUILD, name: "Claw Guild", channels: [{ id: GENERAL, name: "general", type: 0 }], roles: [{ id: MOD_ROLE, name: "mod" }] }],
  });
  const stateDir = makeTempDir("openclaw-reactions-discord-");
  servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
  const config = { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [OWNER], guilds: { [GUILD]: guild } };
  const gateway = servers.keep(
    await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { discord: config } }) } }),
  );
  await gateway.waitForOutput(/channel account started/, 10_000);
  const fake = discord;
  await waitFor(() => fake.identifyCount === 1, 15_000, "the Discord IDENTIFY");
  return fake;
}

/** Posts a message as `authorId` in #general and waits for the bot's answer to it (the `count`th in the channel). */
async function say(fake: FakeDiscord, authorId: string, content: string, count: number, extra: { memberRoles?: string[] } = {}): Promise<string> {
  const message = fake.pushMessage({ channelId: GENERAL, guildId: GUILD, authorId, authorName: nameOf(authorId), content, ...extra });
  await waitFor(() => fake.messages(GENERAL).length === count, 15_000, `answer ${count} in #general`);
  return message.id;
}

function nameOf(userId: string): string {
  return { [OWNER]: "olivia", [MODERATOR]: "mona", [STRANGER]: "sam" }[userId] ?? `user${userId}`;
}

/** The user text of each model request, in order. */
const prompts = () => chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));

describe("Discord reaction notifications", { timeout: 90_000 }, () => {
  it("own (default): the allowed user's reaction to the bot's reply reaches their next message once; others do not", async () => {
    const fake = await start({ requireMention: false, users: [OWNER] });
    await say(fake, OWNER, "hello", 1);
    const botReply = fake.messages(GENERAL).at(-1)!.id;
    // A message by someone the guild does not admit: no answer, but one can react to it.
    const strangers = fake.pushMessage({ channelId: GENERAL, guildId: GUILD, authorId: STRANGER, authorName: "sam", content: "me too" });

    expect(fake.pushReaction({ channelId: GENERAL, messageId: botReply, userId: OWNER, userName: "olivia", emoji: "✅" })).toBe(true);
    // Not the bot's message: ignored under `own`.
    fake.pushReaction({ channelId: GENERAL, messageId: strangers.id, userId: OWNER, userName: "olivia", emoji: "🎉" });
    // Someone the guild's `users` leave out: no notice, whatever they react to.
    fake.pushReaction({ channelId: GENERAL, messageId: botReply, userId: STRANGER, userName: "sam", emoji: "✅" });

    await say(fake, OWNER, "what did I think?", 2);
    await say(fake, OWNER, "and now?", 3);

    const asked = prompts();
    expect(asked).toHaveLength(3);
    const lines = asked[1]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`\\] Discord reaction added: ✅ by .* on ${GUILD} #general msg ${botReply}$`));
    expect(lines[0]).toContain("by olivia (@olivia)");
    expect(lines[1]).toBe("");
    expect(asked[1]!.match(/System:/g)).toHaveLength(1);
    expect(lines.at(-1)).toContain("what did I think?");
    expect(asked[1]).not.toContain("🎉");
    // Carried once: the next message has no notice.
    expect(asked[2]).not.toContain("System:");
  });

  it("allowlist: a listed user's reaction to anyone's message is reported; an unlisted member's, even to the bot, is not", async () => {
    // The moderator is admitted by role, but is not in `users`: the reaction allowlist.
    const fake = await start({ requireMention: false, users: [OWNER], roles: [MOD_ROLE], reactionNotifications: "allowlist" });
    await say(fake, OWNER, "hello", 1);
    const botReply = fake.messages(GENERAL).at(-1)!.id;
    const modMessage = await say(fake, MODERATOR, "moderator here", 2, { memberRoles: [MOD_ROLE] });

    fake.pushReaction({ channelId: GENERAL, messageId: modMessage, userId: OWNER, userName: "olivia", emoji: "👀" });
    fake.pushReaction({ channelId: GENERAL, messageId: botReply, userId: MODERATOR, userName: "mona", memberRoles: [MOD_ROLE], emoji: "✅" });
    await say(fake, OWNER, "anything new?", 3);

    const asked = prompts();
    expect(asked).toHaveLength(3);
    // The moderator reached the agent: only the allowlist keeps their reaction out.
    expect(asked[1]).toContain("moderator here");
    const lines = asked[2]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`\\] Discord reaction added: 👀 by olivia \\(@olivia\\) on ${GUILD} #general msg ${modMessage}$`));
    expect(lines[1]).toBe("");
    expect(asked[2]!.match(/System:/g)).toHaveLength(1);
    expect(asked[2]).not.toContain("✅");
  });

  it("a DM takes own: the owner's reaction to the bot's DM reply reaches the next DM", async () => {
    const fake = await start({ requireMention: false, users: [OWNER], reactionNotifications: "all" });
    const first = fake.pushMessage({ channelId: OWNER_DM, authorId: OWNER, authorName: "olivia", content: "hi in private" });
    await waitFor(() => fake.messages(OWNER_DM).length === 1, 15_000, "the DM answer");
    const botReply = fake.messages(OWNER_DM).at(-1)!.id;
    // The guild's `all` does not reach DMs: the owner's own message is not the bot's.
    fake.pushReaction({ channelId: OWNER_DM, messageId: first.id, userId: OWNER, emoji: "🎉" });
    expect(fake.pushReaction({ channelId: OWNER_DM, messageId: botReply, userId: OWNER, emoji: "👍" })).toBe(true);
    fake.pushMessage({ channelId: OWNER_DM, authorId: OWNER, authorName: "olivia", content: "did you see?" });
    await waitFor(() => fake.messages(OWNER_DM).length === 2, 15_000, "the second DM answer");

    const lines = prompts()[1]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`\\] Discord reaction added: 👍 by olivia \\(@olivia\\) on msg ${botReply}$`));
    expect(lines[1]).toBe("");
    expect(prompts()[1]).not.toContain("🎉");
    expect(lines.at(-1)).toContain("did you see?");
  });
});
