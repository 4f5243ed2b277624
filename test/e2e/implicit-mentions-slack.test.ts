import { beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../fakes/slack-server.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { useFakeSlackGateways } from "../helpers/fake-slack-gateways.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { waitUntilGateway } from "../helpers/reliability.js";

/**
 * Slack's implicit mentions through a real gateway and @slack/bolt: in a channel that needs a
 * mention, a message in a thread the bot has answered in counts as one (`threadParticipation`,
 * on by default, as OpenClaw); with `implicitMentions.threadParticipation: false` it does not.
 */
const USER = "U0IMPLICIT";
const servers = useFakeServers();
const slackGateways = useFakeSlackGateways(servers);
let slack: FakeSlack;
beforeAll(() => {
  slack = slackGateways.slack;
});

function startSlackGateway(extra: Record<string, unknown>): Promise<GatewayProcess> {
  servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req)}` }));
  return slackGateways.start({ appToken: slack.appToken, groupPolicy: "open", ...extra });
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
