import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord, type PushMessageInput } from "../fakes/discord-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { agentTurnTo } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, sleep, waitUntil } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * Discord end to end: the real discord.js client in the gateway talks to a fake Discord (REST
 * and gateway WebSocket on one port); the agent talks to a fake model server.
 *
 * One gateway serves every test (starting one costs seconds on a loaded machine). Each test talks
 * in chats of its own, and DMs are scoped per sender, so no test sees another's session or replies.
 */

// Real snowflakes: discord.js only reads `<@id>` mentions of 17 to 20 digits.
const BOT = "100000000000000800";
const GUILD = "100000000000000900";
const MENTION_CHANNEL = "100000000000000901";
const ROUTED_CHANNEL = "100000000000000902";
const VIP_ROLE = "100000000000000950";
/** Guild members: guild access does not depend on the DM allowlist. */
const ANN = "100000000000000444";
const MEMBER = "100000000000000333";
const STRANGER = "100000000000000222";
const STRANGER_DM = "100000000000000702";
/** Allowlisted senders, each used by one test only: `owner(i)` is sender i and its DM channel with the bot. */
const OWNER_COUNT = 7;
const owner = (i: number) => ({ userId: `10000000000000011${i}`, dmChannel: `10000000000000071${i}` });

let model: FakeModelServer;
let discord: FakeDiscord;
let gw: GatewayProcess;

beforeAll(async () => {
  model = await startFakeModelServer();
  discord = await startFakeDiscord({
    botId: BOT,
    botName: "clawbot",
    guilds: [
      {
        id: GUILD,
        name: "Claw Guild",
        channels: [
          { id: MENTION_CHANNEL, name: "general", type: 0 },
          { id: ROUTED_CHANNEL, name: "vip-lounge", type: 0 },
        ],
        roles: [{ id: VIP_ROLE, name: "vip" }],
      },
    ],
  });
  const stateDir = makeTempDir();
  const discordConfig = {
    token: discord.token,
    restApiUrl: discord.restUrl,
    typingIntervalSeconds: 0,
    allowFrom: Array.from({ length: OWNER_COUNT }, (_, i) => owner(i).userId),
    // The guild sets no requireMention: the default (mention required) applies.
    guilds: { [GUILD]: {} },
  };
  const config = JSON.parse(
    fakeModelConfig(model, stateDir, {
      channels: { discord: discordConfig },
      // Debug lines too, so the token check at the end covers everything the gateway can log.
      logging: { level: "debug" },
      session: { dmScope: "per-channel-peer" },
      bindings: [{ agentId: "vip", match: { channel: "discord", guildId: GUILD, roles: [VIP_ROLE] } }],
    }),
  );
  // Added beside `agents.defaults` (which holds the fake model), not in place of it.
  config.agents.list = [{ id: "main", default: true }, { id: "vip" }];
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config, null, 2) } });
  await gw.waitForOutput(/channel account started/, 10_000);
  // The fake sends READY and GUILD_CREATE right after IDENTIFY; discord.js handles what follows in order.
  await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await discord?.close();
  await model?.close();
});
afterEach(() => {
  discord.clearArmed();
  model.reset();
});

const cliEnv = () => ({ OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });
const dmFrom = (i: number, content: string, extra: Partial<PushMessageInput> = {}) =>
  discord.pushMessage({ channelId: owner(i).dmChannel, authorId: owner(i).userId, authorName: `Owner${i}`, content, ...extra });
const inGuild = (channelId: string, content: string, extra: Partial<PushMessageInput> = {}) =>
  discord.pushMessage({ channelId, guildId: GUILD, authorId: ANN, authorName: "Ann", content, mentionsBot: content.includes(`<@${BOT}>`), ...extra });
const repliesIn = (channelId: string) => discord.messages(channelId).map((m) => m.content);

describe("Discord channel", () => {
  it("answers an allowlisted DM exactly once, also when the same MESSAGE_CREATE arrives twice", async () => {
    const dm = owner(0).dmChannel;
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const first = dmFrom(0, "hello there");
    await waitUntil(() => repliesIn(dm).length === 1, 10_000, "the first reply");
    expect(repliesIn(dm)).toEqual(["echo: hello there"]);
    dmFrom(0, "hello there", { id: first.id });
    // Messages are handled in order: once the next one is answered, the duplicate was seen. The
    // next one comes from someone else: in the same session it could merge with a duplicate run.
    dmFrom(5, "and this");
    await waitUntil(() => repliesIn(owner(5).dmChannel).length === 1, 10_000, "the reply after the duplicate");
    await sleep(300);
    expect(repliesIn(dm)).toEqual(["echo: hello there"]);
    expect(repliesIn(owner(5).dmChannel)).toEqual(["echo: and this"]);
    expect(chatRequests(model)).toHaveLength(2);
    expect(discord.unhandledRoutes).toEqual([]);
  });

  it("ignores a guild message without a mention (requireMention by default) and answers one that mentions the bot", async () => {
    model.setResponder((req) => ({ text: `guild: ${lastUserText(req)}` }));
    inGuild(MENTION_CHANNEL, "just chatting");
    inGuild(MENTION_CHANNEL, `<@${BOT}> what time is it`);
    await waitUntil(() => repliesIn(MENTION_CHANNEL).length === 1, 10_000, "the guild reply");
    await sleep(300);
    expect(chatRequests(model)).toHaveLength(1);
    // The unmentioned message is not answered, but it is the next reply's context (historyLimit).
    const [reply] = repliesIn(MENTION_CHANNEL);
    expect(reply).toMatch(
      /^guild: \[Chat messages since your last reply - for context\][\s\S]*\n\[Ann\] just chatting\n[\s\S]*\[Current message - respond to this\]\n\[Ann\] what time is it$/,
    );
  });

  it("sends a 9,000-character reply as chunks of at most 2000 characters and 17 lines, in order", async () => {
    const dm = owner(1).dmChannel;
    // Long paragraphs meet the character limit first, the short list lines the line limit.
    const paragraphs = Array.from({ length: 15 }, (_, i) => `Paragraph ${i}: ${"lorem ipsum ".repeat(24).trim()}`);
    const list = Array.from({ length: 150 }, (_, i) => `- item ${i}: one short line of text`);
    const long = `${paragraphs.join("\n\n")}\n\n${list.join("\n")}`;
    expect(long.length).toBeGreaterThan(9_000);
    const flat = (text: string) => text.replace(/\s+/g, " ");
    model.setResponder(() => ({ text: long }));
    dmFrom(1, "long please");
    await waitUntil(() => flat(repliesIn(dm).join("\n\n")).length >= flat(long).length, 15_000, "every chunk");
    await sleep(300);
    const chunks = repliesIn(dm);
    expect(chunks.length).toBeGreaterThanOrEqual(10);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(2000);
      expect(chunk.split("\n").length).toBeLessThanOrEqual(17);
    }
    expect(flat(chunks.join("\n\n"))).toBe(flat(long));
  });

  it("waits retry_after on a 429 for POST messages and then delivers", async () => {
    const dm = owner(2).dmChannel;
    model.setResponder(() => ({ text: "after the wait" }));
    const route = `POST /channels/${dm}/messages`;
    // 2 s: longer than the first backoff of an ordinary failed send (1 s), so only honouring retry_after passes.
    discord.failNext(route, { status: 429, retryAfter: 2 });
    dmFrom(2, "hi");
    const posts = () => discord.sent.filter((r) => `${r.method} ${r.path}` === route).length;
    await waitUntil(() => posts() === 1, 10_000, "the rate-limited POST");
    const refusedAt = Date.now();
    await waitUntil(() => repliesIn(dm).length === 1, 10_000, "the delivered reply");
    // Both moments are observed by 10 ms polling: allow that much slack below the 2 s wait.
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(1_950);
    expect(posts()).toBe(2);
    expect(repliesIn(dm)).toEqual(["after the wait"]);
  });

  it("bindings by guild + roles route a member with the role to another agent, the others to the default", async () => {
    model.setResponder((req) => ({ text: `routed: ${lastUserText(req)}` }));
    inGuild(ROUTED_CHANNEL, `<@${BOT}> which agent?`, { memberRoles: [VIP_ROLE] });
    await waitUntil(() => repliesIn(ROUTED_CHANNEL).length === 1, 10_000, "the vip agent's reply");
    inGuild(ROUTED_CHANNEL, `<@${BOT}> and me?`, { authorId: MEMBER, authorName: "Bob" });
    await waitUntil(() => repliesIn(ROUTED_CHANNEL).length === 2, 10_000, "the default agent's reply");
    expect(repliesIn(ROUTED_CHANNEL)).toEqual(["routed: [Ann] which agent?", "routed: [Bob] and me?"]);
    const sessions = await runCli(["sessions", "--json"], cliEnv());
    const keys = (JSON.parse(sessions.output).sessions as { key: string }[]).map((s) => s.key).filter((key) => key.includes(ROUTED_CHANNEL));
    expect(keys.sort()).toEqual([`agent:main:discord:channel:${ROUTED_CHANNEL}`, `agent:vip:discord:channel:${ROUTED_CHANNEL}`]);
    const status = await runCli(["channels", "status", "--json"], cliEnv());
    expect(JSON.parse(status.output).channelAccounts.discord[0]).toMatchObject({ accountId: "default", running: true, connected: true, mode: "gateway", botId: BOT });
  });

  it("agent with to and channel discord continues the session of the DM or channel it names, sending nothing there", async () => {
    const { userId, dmChannel } = owner(6);
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    dmFrom(6, "my name is Bo");
    await waitUntil(() => repliesIn(dmChannel).length === 1, 10_000, "the DM reply");
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const turn = (to: string) => agentTurnTo(sock, model, "discord", to);
      // The user, and the DM channel with them, are the same peer: the DM's session.
      expect(await turn(`user:${userId}`)).toEqual(expect.arrayContaining(["my name is Bo", `via user:${userId}`]));
      expect(await turn(`channel:${dmChannel}`)).toEqual(expect.arrayContaining(["my name is Bo", `via channel:${dmChannel}`]));
      await turn(`channel:${MENTION_CHANNEL}`);
      const keys = (await sock.request("sessions.list", {})).payload.sessions.map((row: { key: string }) => row.key);
      expect(keys).toEqual(expect.arrayContaining([`agent:main:discord:direct:${userId}`, `agent:main:discord:channel:${MENTION_CHANNEL}`]));
      expect(repliesIn(dmChannel)).toHaveLength(1);
    } finally {
      sock.close();
    }
  });

  it("/stop aborts the running turn and says so", async () => {
    const dm = owner(3).dmChannel;
    const modelDelayMs = 3_000;
    model.setResponder(() => ({ text: "slow answer", delayMs: modelDelayMs }));
    dmFrom(3, "take your time");
    await waitUntil(() => chatRequests(model).length === 1, 10_000, "model request");
    const askedAt = Date.now();
    dmFrom(3, "/stop");
    await waitUntil(() => repliesIn(dm).length >= 1, 10_000, "the stop answer");
    // Past the moment the model answers: a run that was not really stopped would reply by then.
    await sleep(Math.max(500, askedAt + modelDelayMs + 500 - Date.now()));
    expect(repliesIn(dm)).toEqual(["⏹ Stopped."]);
  });

  it("gives an unknown DM sender a pairing code and makes no model request", async () => {
    discord.pushMessage({ channelId: STRANGER_DM, authorId: STRANGER, content: "let me in" });
    await waitUntil(() => repliesIn(STRANGER_DM).length === 1, 10_000, "the pairing reply");
    const pairingText = repliesIn(STRANGER_DM)[0]!;
    expect(pairingText).toContain(`Your Discord user id: ${STRANGER}`);
    expect(pairingText).toMatch(/Pairing code: [A-Z2-9]{8}/);
    await sleep(300);
    expect(chatRequests(model)).toHaveLength(0);
  });

  // Near the end: it breaks the connection the other tests use (and leaves it resumed when it passes).
  it("resumes a dropped gateway connection and answers a message sent while it was down exactly once", async () => {
    const dm = owner(4).dmChannel;
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    await discord.dropConnection({ resumable: true });
    dmFrom(4, "sent while you were away");
    await waitUntil(() => discord.resumeCount === 1, 15_000, "the RESUME");
    await waitUntil(() => repliesIn(dm).length === 1, 10_000, "the reply after the resume");
    await sleep(500);
    expect(repliesIn(dm)).toEqual(["echo: sent while you were away"]);
    expect(chatRequests(model)).toHaveLength(1);
    expect(discord.identifyCount).toBe(1);
  });

  // Last: it reads everything the tests above made the gateway log.
  it("never writes the bot token to its output", () => {
    expect(gw.output()).toContain("channel account started");
    expect(gw.output()).not.toContain(discord.token);
  });
});
