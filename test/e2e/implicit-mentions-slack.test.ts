import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { waitUntilGateway } from "../helpers/reliability.js";

/**
 * Slack's implicit mentions through a real gateway and @slack/bolt: in a channel that needs a
 * mention, a message in a thread the bot has answered in counts as one (`threadParticipation`,
 * on by default, as OpenClaw); with `implicitMentions.threadParticipation: false` it does not.
 */
const USER = "U0IMPLICIT";
const servers = useFakeServers();
let slack: FakeSlack;

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack?.close();
});
afterEach(() => {
  slack.dropConnections();
  slack.clearArmed();
});

async function startSlackGateway(extra: Record<string, unknown>): Promise<GatewayProcess> {
  const stateDir = makeTempDir("openclaw-implicit-slack-");
  servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req)}` }));
  const channels = { slack: { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, groupPolicy: "open", ...extra } };
  const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels }) } }));
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

/** A thread started by someone else, the bot mentioned in it (and answering there), then a follow-up without a mention. */
async function followUpInBotThread(gw: GatewayProcess, channel: string): Promise<void> {
  const root = slack.pushMessage({ channel, channelType: "channel", user: "U0OTHER", text: "a question for the room" });
  slack.pushMessage({ channel, channelType: "channel", user: USER, text: `<@${slack.botUserId}> can you help?`, threadTs: root.ts });
  await waitUntilGateway(gw, () => slack.posted.some((p) => p.channel === channel && p.thread_ts === root.ts), 15_000, "the answer in the thread");
  slack.pushMessage({ channel, channelType: "channel", user: USER, text: "and one more thing", threadTs: root.ts });
  // Something the bot must answer comes after: once it is answered, the follow-up was decided on.
  slack.pushMessage({ channel, channelType: "channel", user: USER, text: `<@${slack.botUserId}> done` });
  await waitUntilGateway(gw, () => slack.posted.some((p) => p.channel === channel && p.thread_ts === undefined), 15_000, "the answer to the last mention");
}

const prompts = () => chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));

describe("Slack implicit mentions", { timeout: 60_000 }, () => {
  it("threadParticipation (default): a follow-up in a thread the bot answered in needs no mention", async () => {
    const gw = await startSlackGateway({});
    await followUpInBotThread(gw, "C0IMPLICITON");
    expect(prompts().some((p) => p.includes("and one more thing"))).toBe(true);
  });

  it("implicitMentions.threadParticipation: false: the follow-up needs a mention", async () => {
    const gw = await startSlackGateway({ implicitMentions: { threadParticipation: false } });
    await followUpInBotThread(gw, "C0IMPLICITOFF");
    expect(prompts().some((p) => p.includes("and one more thing"))).toBe(false);
    expect(prompts().some((p) => p.includes("done"))).toBe(true);
  });
});
