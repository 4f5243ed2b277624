import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord, waitFor, type FakeDiscord } from "../fakes/discord-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { FEEDBACK_ONLY_REVIEW, labelPass, reviewQueue } from "../helpers/review-queue.js";

/**
 * Discord reactions as feedback through a real gateway and discord.js against the fake Discord:
 * the allowed user's 👎 on the bot's reply queues the run that wrote it (`negative-feedback`),
 * taking it back (MESSAGE_REACTION_REMOVE) takes the rating back, 👍 rates it up, a member the guild does not admit and other emoji rate nothing, the notice still
 * comes, and a reaction after a restart still finds its run.
 *
 * The plugin hands a channel's reaction over before the message after it in that channel, so once
 * the bot answered a later message, every reaction pushed before it has been decided.
 */

// Real snowflakes: discord.js only reads ids of 17 to 20 digits.
const BOT = "100000000000000800";
const GUILD = "100000000000000900";
const GENERAL = "100000000000000901";
const OWNER = "100000000000000111";
const STRANGER = "100000000000000222";

const servers = useFakeServers();
let discord: FakeDiscord | undefined;

afterEach(async () => {
  await discord?.close();
  discord = undefined;
});

async function startOn(fake: FakeDiscord, stateDir: string): Promise<GatewayProcess> {
  const identified = fake.identifyCount;
  const config = { token: fake.token, restApiUrl: fake.restUrl, typingIntervalSeconds: 0, allowFrom: [OWNER], guilds: { [GUILD]: { requireMention: false, users: [OWNER] } } };
  const content = fakeModelConfig(servers.model, stateDir, { channels: { discord: config }, ...FEEDBACK_ONLY_REVIEW });
  const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
  await gateway.waitForOutput(/channel account started/, 10_000);
  await waitFor(() => fake.identifyCount === identified + 1, 15_000, "the Discord IDENTIFY");
  return gateway;
}

/** Posts a message as the owner in #general and waits for the bot's answer to it: that answer's id. */
async function ask(fake: FakeDiscord, content: string): Promise<string> {
  const before = fake.messages(GENERAL).length;
  fake.pushMessage({ channelId: GENERAL, guildId: GUILD, authorId: OWNER, authorName: "olivia", content });
  await waitFor(() => fake.messages(GENERAL).length === before + 1, 15_000, `the answer to ${content}`);
  return fake.messages(GENERAL).at(-1)!.id;
}

describe("Discord reactions as feedback", { timeout: 120_000 }, () => {
  it("👎 queues the reply's run, 👍 rates it up, a stranger's and other emoji change nothing; the link survives a restart", async () => {
    const fake = await startFakeDiscord({ botId: BOT, botName: "clawbot", guilds: [{ id: GUILD, name: "Claw Guild", channels: [{ id: GENERAL, name: "general", type: 0 }] }] });
    discord = fake;
    const stateDir = makeTempDir("openclaw-reaction-feedback-discord-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
    const first = await startOn(fake, stateDir);

    const reply = await ask(fake, "hello");
    fake.pushReaction({ channelId: GENERAL, messageId: reply, userId: OWNER, userName: "olivia", emoji: "✅" });
    fake.pushReaction({ channelId: GENERAL, messageId: reply, userId: STRANGER, userName: "sam", emoji: "👎" });
    const second = await ask(fake, "what did I think?");
    expect(await reviewQueue(first)).toEqual([]);
    const prompt = lastUserTextOf(chatRequests(servers.model.requests).at(-1)!);
    expect(prompt).toContain(`Discord reaction added: ✅ by olivia (@olivia) on ${GUILD} #general msg ${reply}`);
    expect(prompt).not.toContain("👎");

    fake.pushReaction({ channelId: GENERAL, messageId: reply, userId: OWNER, userName: "olivia", emoji: "👎" });
    await ask(fake, "noted?");
    const [down] = await reviewQueue(first);
    expect(down).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down" } });
    const runId = down!.run.runId;
    // The notice came as before.
    expect(lastUserTextOf(chatRequests(servers.model.requests).at(-1)!)).toContain(`Discord reaction added: 👎 by olivia (@olivia) on ${GUILD} #general msg ${reply}`);

    // Taken back while it is still his: the rating goes and the run leaves the queue; the removal makes no notice.
    fake.pushReaction({ channelId: GENERAL, messageId: reply, userId: OWNER, emoji: "👎", removed: true });
    await ask(fake, "changed my mind");
    expect(await reviewQueue(first)).toEqual([]);
    expect(lastUserTextOf(chatRequests(servers.model.requests).at(-1)!)).not.toContain("System:");

    fake.pushReaction({ channelId: GENERAL, messageId: reply, userId: OWNER, userName: "olivia", emoji: "👍" });
    await ask(fake, "and now?");
    expect(await reviewQueue(first)).toEqual([]);
    await labelPass(first, runId);
    expect(await reviewQueue(first)).toEqual([expect.objectContaining({ reasons: ["manual"], feedback: expect.objectContaining({ rating: "up" }) })]);
    await first.stop();

    // After a restart the owner's 👎 on an earlier reply still finds its run.
    const restarted = await startOn(fake, stateDir);
    fake.pushReaction({ channelId: GENERAL, messageId: second, userId: OWNER, userName: "olivia", emoji: "👎" });
    await ask(fake, "after the restart");
    const queued = (await reviewQueue(restarted)).find((i) => i.run.runId !== runId);
    expect(queued).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down" } });
    await restarted.stop();
  });
});
