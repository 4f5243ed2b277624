import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack, type FakeSlackMessage } from "../fakes/slack-server.js";
import { agentTurnTo } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, sleep, waitUntil } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * Slack end to end: the real @slack/bolt in the gateway talks to a fake Slack, over Socket Mode
 * or through HTTP Events posted to the gateway's own port; the agent talks to a fake model server.
 *
 * One gateway per mode serves its tests (starting one costs seconds on a loaded machine). Each
 * test talks in chats of its own, and DMs are scoped per sender, so no test sees another's
 * session or replies.
 */

const CHANNEL = "C0GENERAL";
const THREAD_CHANNEL = "C0THREADS";
const SIGNING_SECRET = "fake-signing-secret";
/** Allowlisted senders, each used by one test only: `owner(i)` is sender i and its DM channel with the bot. */
const OWNER_COUNT = 10;
const owner = (i: number) => ({ userId: `U10${i}`, dmChannel: `D10${i}` });

let model: FakeModelServer;
let slack: FakeSlack;

/** A gateway whose Slack account is up: in Socket Mode the socket is open, in HTTP mode auth.test passed. */
async function startSlackGateway(mode: "socket" | "http", extra: Record<string, unknown> = {}): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const secrets = mode === "socket" ? { appToken: slack.appToken } : { signingSecret: SIGNING_SECRET };
  const slackConfig = {
    mode,
    botToken: slack.botToken,
    ...secrets,
    slackApiUrl: slack.apiUrl,
    allowFrom: Array.from({ length: OWNER_COUNT }, (_, i) => owner(i).userId),
    channels: { "*": {} },
    ...extra,
  };
  const gw = await startGateway({
    stateDir,
    configFile: {
      name: "openclaw.json",
      // Debug lines too, so the secret checks cover everything the gateway and the Slack SDK can log.
      content: fakeModelConfig(model, stateDir, { channels: { slack: slackConfig }, session: { dmScope: "per-channel-peer" }, logging: { level: "debug" } }),
    },
  });
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack?.close();
  await model?.close();
});
afterEach(() => {
  slack.clearArmed();
  model.reset();
});

/**
 * Kills a describe's gateway after its last test (whose afterEach ran already), then drops the
 * connections and model requests it left, so nothing it sent just before reaches the next describe.
 */
async function killGateway(gw: GatewayProcess | undefined): Promise<void> {
  await gw?.stop("SIGKILL");
  slack.dropConnections();
  model.dropConnections();
  model.reset();
}

const dmFrom = (i: number, text: string, extra: Partial<FakeSlackMessage> = {}) =>
  slack.pushMessage({ channel: owner(i).dmChannel, channelType: "im", user: owner(i).userId, text, ...extra });
const repliesIn = (channel: string) => slack.posted.filter((p) => p.channel === channel).map((p) => p.text);

describe("Slack channel (Socket Mode)", () => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startSlackGateway("socket");
  });
  afterAll(async () => {
    await killGateway(gw);
  });

  it("answers a DM exactly once, also when Slack delivers the same event twice", async () => {
    const dm = owner(0).dmChannel;
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const first = dmFrom(0, "hello there");
    await waitUntil(() => repliesIn(dm).length === 1, 10_000, "the first reply");
    expect(repliesIn(dm)).toEqual(["echo: hello there"]);
    const again = dmFrom(0, "hello there", { ts: first.ts });
    // Events are handled in order: once the next one is answered, the redelivery was seen. The
    // next one comes from someone else: in the same session it could merge with a duplicate run.
    dmFrom(6, "and this");
    await waitUntil(() => repliesIn(owner(6).dmChannel).length === 1, 10_000, "the reply after the redelivery");
    await sleep(300);
    expect(slack.acks.has(again.envelopeId)).toBe(true);
    expect(repliesIn(dm)).toEqual(["echo: hello there"]);
    expect(repliesIn(owner(6).dmChannel)).toEqual(["echo: and this"]);
    expect(chatRequests(model)).toHaveLength(2);
    expect(slack.unknownMethods).toEqual([]);
  });

  it("agent with to and channel slack continues the session of the DM or channel it names, sending nothing there", async () => {
    const { userId, dmChannel } = owner(8);
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    dmFrom(8, "my name is Cy");
    await waitUntil(() => repliesIn(dmChannel).length === 1, 10_000, "the DM reply");
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const turn = (to: string) => agentTurnTo(sock, model, "slack", to);
      // The user, and the DM conversation with them, are the same peer: the DM's session.
      expect(await turn(`user:${userId}`)).toEqual(expect.arrayContaining(["my name is Cy", `via user:${userId}`]));
      expect(await turn(`channel:${dmChannel}`)).toEqual(expect.arrayContaining(["my name is Cy", `via channel:${dmChannel}`]));
      await turn(`channel:${CHANNEL}`);
      const keys = (await sock.request("sessions.list", {})).payload.sessions.map((row: { key: string }) => row.key);
      expect(keys).toEqual(expect.arrayContaining([`agent:main:slack:direct:${userId.toLowerCase()}`, `agent:main:slack:channel:${CHANNEL.toLowerCase()}`]));
      expect(repliesIn(dmChannel)).toHaveLength(1);
    } finally {
      sock.close();
    }
  });

  it("answers a thread reply inside the thread", async () => {
    model.setResponder(() => ({ text: "in the thread" }));
    // A root posted a minute ago: its ts must differ from the reply's, which the fake stamps now.
    const root = `${Math.floor(Date.now() / 1000) - 60}.000100`;
    slack.pushMessage({ channel: THREAD_CHANNEL, channelType: "channel", user: owner(1).userId, text: `<@${slack.botUserId}> a reply in a thread`, threadTs: root });
    await waitUntil(() => repliesIn(THREAD_CHANNEL).length === 1, 10_000, "the thread reply");
    expect(slack.posted.filter((p) => p.channel === THREAD_CHANNEL)).toEqual([expect.objectContaining({ text: "in the thread", thread_ts: root })]);
  });

  it("ignores a channel message without a mention and answers <@bot> once, though Slack sends message and app_mention", async () => {
    model.setResponder((req) => ({ text: `channel: ${lastUserText(req)}` }));
    const author = owner(2).userId;
    slack.pushMessage({ channel: CHANNEL, channelType: "channel", user: author, text: "just chatting" });
    const text = `<@${slack.botUserId}> what time is it`;
    const { ts } = slack.pushMessage({ channel: CHANNEL, channelType: "channel", user: author, text });
    slack.pushMessage({ channel: CHANNEL, user: author, text, ts, appMention: true });
    await waitUntil(() => repliesIn(CHANNEL).length === 1, 10_000, "the channel reply");
    await sleep(500);
    expect(chatRequests(model)).toHaveLength(1);
    // The unmentioned message is not answered, but it is the next reply's context (historyLimit).
    const [reply] = repliesIn(CHANNEL);
    expect(reply).toContain(`[user-${author.toLowerCase()}] just chatting`);
    expect(reply).toMatch(
      new RegExp(
        `^channel: \\[Chat messages since your last reply - for context\\][\\s\\S]*\\[Current message - respond to this\\]\\n\\[user-${author.toLowerCase()}\\] what time is it$`,
      ),
    );
  });

  it("waits Retry-After when chat.postMessage is rate limited, then delivers", async () => {
    const dm = owner(3).dmChannel;
    model.setResponder(() => ({ text: "after the wait" }));
    // 2 s: longer than the first backoff of an ordinary failed send (1 s), so only honouring Retry-After passes.
    slack.failNext("chat.postMessage", { error: "ratelimited", retryAfter: 2 });
    dmFrom(3, "hi");
    const attempts = () => slack.calls.filter((c) => c.method === "chat.postMessage" && c.body.channel === dm).length;
    await waitUntil(() => attempts() === 1, 10_000, "the rate-limited chat.postMessage");
    const refusedAt = Date.now();
    await waitUntil(() => repliesIn(dm).length === 1, 10_000, "the delivered reply");
    // Both moments are observed by 10 ms polling: allow that much slack below the 2 s wait.
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(1_950);
    expect(attempts()).toBe(2);
    expect(repliesIn(dm)).toEqual(["after the wait"]);
  });

  it("never writes the bot or app token to its output", () => {
    expect(gw.output()).toContain("Slack Socket Mode connected");
    expect(gw.output()).not.toContain(slack.botToken);
    expect(gw.output()).not.toContain(slack.appToken);
  });
});

describe("Slack channel (HTTP Events on the gateway port)", () => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startSlackGateway("http");
  });
  afterAll(async () => {
    await killGateway(gw);
  });

  /** Slack `ts` values of now; `n` keeps several in one second apart. */
  const tsNow = (n: number) => `${Math.floor(Date.now() / 1000)}.${String(n).padStart(6, "0")}`;

  /** An Events API callback carrying one DM from owner `i`, as Slack POSTs it. */
  const dmEvent = (i: number, text: string, ts: string) =>
    JSON.stringify({
      token: "fake-verification-token",
      team_id: slack.teamId,
      api_app_id: "A0FAKEAPP",
      type: "event_callback",
      event_id: `Ev${i}${ts.replace(".", "")}`,
      event_time: Math.floor(Date.now() / 1000),
      event: { type: "message", channel: owner(i).dmChannel, channel_type: "im", user: owner(i).userId, text, ts, event_ts: ts, team: slack.teamId },
    });

  const postEvent = async (body: string, headers: Record<string, string>): Promise<{ status: number; ms: number }> => {
    const sentAt = Date.now();
    const res = await fetch(`${gw.httpUrl}/slack/events`, { method: "POST", headers, body });
    await res.arrayBuffer();
    return { status: res.status, ms: Date.now() - sentAt };
  };

  it("acks a signed event within 3 s and answers the DM; a Slack retry of it is not answered again", async () => {
    const dm = owner(4).dmChannel;
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const body = dmEvent(4, "over http", tsNow(1));
    const first = await postEvent(body, slack.signEvent(body, SIGNING_SECRET));
    expect(first.status).toBe(200);
    expect(first.ms).toBeLessThan(3_000);
    await waitUntil(() => repliesIn(dm).length === 1, 10_000, "the reply");
    expect(repliesIn(dm)).toEqual(["echo: over http"]);

    const retry = await postEvent(body, { ...slack.signEvent(body, SIGNING_SECRET), "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" });
    expect(retry.status).toBe(200);
    // Events are handled in order: once the next one is answered, the retry was seen. The next
    // one comes from someone else: in the same session it could merge with a duplicate run.
    const next = dmEvent(7, "after the retry", tsNow(2));
    expect((await postEvent(next, slack.signEvent(next, SIGNING_SECRET))).status).toBe(200);
    await waitUntil(() => repliesIn(owner(7).dmChannel).length === 1, 10_000, "the reply after the retry");
    await sleep(300);
    expect(repliesIn(dm)).toEqual(["echo: over http"]);
    expect(repliesIn(owner(7).dmChannel)).toEqual(["echo: after the retry"]);
    expect(chatRequests(model)).toHaveLength(2);
  });

  it("refuses a wrong signature with 401 and makes no model request", async () => {
    const body = dmEvent(5, "forged", tsNow(1));
    const forged = await postEvent(body, slack.signEvent(body, "not-the-secret"));
    expect(forged.status).toBe(401);
    await sleep(500);
    expect(chatRequests(model)).toHaveLength(0);
    expect(repliesIn(owner(5).dmChannel)).toEqual([]);
  });

  it("never writes the bot token or the signing secret to its output", () => {
    expect(gw.output()).toContain("Slack HTTP event refused: signature mismatch");
    expect(gw.output()).not.toContain(slack.botToken);
    expect(gw.output()).not.toContain(SIGNING_SECRET);
  });
});

describe("Slack replyToMode", () => {
  let gw: GatewayProcess | undefined;
  afterAll(async () => {
    await killGateway(gw);
  });

  it("first: a reply split in several messages goes whole into the thread of the message it answers (Slack has no quote-reply)", async () => {
    gw = await startSlackGateway("socket", { replyToMode: "first", textChunkLimit: 200 });
    const long = Array.from({ length: 4 }, (_, i) => `Paragraph ${i}: ${"lorem ipsum ".repeat(12).trim()}`).join("\n\n");
    model.setResponder(() => ({ text: long }));
    const { ts } = dmFrom(9, "a long answer please");
    await waitUntil(() => repliesIn(owner(9).dmChannel).length >= 3, 10_000, "the split reply");
    expect(slack.posted.filter((p) => p.channel === owner(9).dmChannel).map((p) => p.thread_ts)).toEqual(repliesIn(owner(9).dmChannel).map(() => ts));
  });
});
