import { describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { sleep, waitUntil } from "../helpers/reliability.js";

/**
 * `allowBots` on a Discord channel's entry with the real discord.js client against a fake
 * Discord: another bot's message reaches the agent in that channel only; elsewhere, and in DMs,
 * the account's `allowBots` (unset: no) applies. `botLoopProtection` mutes the bot pair once it
 * goes over its message budget. `allowBots: "mentions"` hears a bot only when it @mentions this one.
 */

const BOT = "100000000000000800";
const OTHER_BOT = "100000000000000333";
const GUILD = "100000000000000900";
const OPEN = "100000000000000901";
const CLOSED = "100000000000000902";

describe("a channel's allowBots on Discord", { timeout: 60_000 }, () => {
  it("lets another bot in where the channel allows it, nowhere else", async () => {
    const model = await startFakeModelServer();
    const guildChannels = [
      { id: OPEN, name: "bots-welcome", type: 0 },
      { id: CLOSED, name: "general", type: 0 },
    ];
    const discord = await startFakeDiscord({ botId: BOT, botName: "clawbot", guilds: [{ id: GUILD, name: "team", channels: guildChannels }] });
    const stateDir = makeTempDir();
    const guilds = { [GUILD]: { requireMention: false, channels: { [OPEN]: { allowBots: true }, [CLOSED]: {} } } };
    const botLoopProtection = { maxEventsPerWindow: 2, windowSeconds: 600, cooldownSeconds: 600 };
    const discordConfig = { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [OTHER_BOT], guilds, botLoopProtection };
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { discord: discordConfig } }) } });
    try {
      await gw.waitForOutput(/channel account started/, 10_000);
      await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
      model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req)}` }));
      const fromBot = (channelId: string, content: string, guildId?: string) =>
        discord.pushMessage({ channelId, ...(guildId ? { guildId } : {}), authorId: OTHER_BOT, authorName: "otherbot", authorIsBot: true, content });

      fromBot(CLOSED, "in the closed channel", GUILD);
      fromBot("100000000000000777", "in a DM");
      fromBot(OPEN, "in the open channel", GUILD);
      await waitUntil(() => discord.messages(OPEN).length === 1, 15_000, "the answer in the open channel");
      await sleep(300);
      const asked = chatRequests(model.requests).map((r) => lastUserTextOf(r));
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("in the open channel");
      expect(discord.messages(CLOSED)).toHaveLength(0);

      // Bot loop protection: a pair may exchange 2 messages here, then it is muted for the cooldown.
      fromBot(OPEN, "second from the bot", GUILD);
      await waitUntil(() => discord.messages(OPEN).length === 2, 15_000, "the second answer");
      fromBot(OPEN, "third from the bot", GUILD);
      await gw.waitForOutput(/bot loop protection: this bot pair went over its message budget/, 10_000);
      await sleep(300);
      expect(chatRequests(model.requests)).toHaveLength(2);
      expect(discord.messages(OPEN)).toHaveLength(2);
    } finally {
      await gw.stop("SIGKILL");
      await discord.close();
      await model.close();
    }
  });
  it('allowBots: "mentions" hears another bot only when it @mentions this bot, not when it replies to it', async () => {
    const model = await startFakeModelServer();
    const discord = await startFakeDiscord({ botId: BOT, botName: "clawbot", guilds: [{ id: GUILD, name: "team", channels: [{ id: OPEN, name: "bots", type: 0 }] }] });
    const stateDir = makeTempDir();
    const discordConfig = {
      token: discord.token,
      restApiUrl: discord.restUrl,
      typingIntervalSeconds: 0,
      allowFrom: [OTHER_BOT],
      allowBots: "mentions",
      guilds: { [GUILD]: { requireMention: false } },
    };
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { discord: discordConfig } }) } });
    try {
      await gw.waitForOutput(/channel account started/, 10_000);
      await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
      model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req)}` }));
      const fromBot = (content: string, extra: { mentionsBot?: boolean; referencedMessageId?: string } = {}) =>
        discord.pushMessage({ channelId: OPEN, guildId: GUILD, authorId: OTHER_BOT, authorName: "otherbot", authorIsBot: true, content, ...extra });

      fromBot("chatter that names nobody");
      fromBot(`<@${BOT}> a question for clawbot`, { mentionsBot: true });
      await waitUntil(() => discord.messages(OPEN).length === 1, 15_000, "the answer to the mention");
      // A reply to the bot's own message is an implicit mention for people, not for a bot under "mentions".
      fromBot("a reply without a mention", { referencedMessageId: discord.messages(OPEN)[0]!.id });
      fromBot(`<@${BOT}> one more`, { mentionsBot: true });
      await waitUntil(() => discord.messages(OPEN).length === 2, 15_000, "the answer to the second mention");
      await sleep(300);
      const asked = chatRequests(model.requests).map((r) => lastUserTextOf(r));
      expect(asked).toHaveLength(2);
      expect(asked[0]).toContain("a question for clawbot");
      expect(asked[1]).toContain("one more");
      expect(asked.join("\n")).not.toMatch(/chatter|a reply without a mention/);
    } finally {
      await gw.stop("SIGKILL");
      await discord.close();
      await model.close();
    }
  });
});
