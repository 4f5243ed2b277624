import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { useFakeSlackGateways } from "../helpers/fake-slack-gateways.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { waitUntilGateway } from "../helpers/reliability.js";
import { FEEDBACK_ONLY_REVIEW, labelPass, reviewQueue } from "../helpers/review-queue.js";

/**
 * Slack reactions as feedback through a real gateway and @slack/bolt (Socket Mode): the owner's
 * `-1` on the bot's reply queues the run that wrote it (`negative-feedback`), `reaction_removed`
 * takes it back while it is still hers, `+1` rates it up, a
 * stranger's `thumbsdown` and other shortcodes rate nothing, the notice still comes, and a
 * reaction after a restart still finds its run.
 */

const ROOM = "C0FEEDBACK";
const OWNER = "U0OWNER";
const STRANGER = "U0STRANGER";

const servers = useFakeServers();
const slackGateways = useFakeSlackGateways(servers);

async function startSlackGateway(stateDir: string): Promise<GatewayProcess> {
  const slack = slackGateways.slack;
  const channels = { slack: { botToken: slack.botToken, slackApiUrl: slack.apiUrl, appToken: slack.appToken, channels: { [ROOM]: { users: [OWNER] } } } };
  // Debug lines: the Slack account logs each reaction it has handed over, which the test waits for.
  const content = fakeModelConfig(servers.model, stateDir, { channels, logging: { level: "debug" }, ...FEEDBACK_ONLY_REVIEW });
  const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

/** The gateway is done with `count` reactions (the account logs each once `onReaction` settled). */
const reactionsHandled = (gw: GatewayProcess, count: number) =>
  waitUntilGateway(gw, () => (gw.output().match(/Slack reaction handed over/g) ?? []).length >= count, 15_000, `${count} reactions handled`);

describe("Slack reactions as feedback", { timeout: 120_000 }, () => {
  it("-1 queues the reply's run, +1 rates it up, a stranger's and other shortcodes change nothing; the link survives a restart", async () => {
    const slack = slackGateways.slack;
    const stateDir = makeTempDir("openclaw-reaction-feedback-slack-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
    const replies = () => slack.posted.filter((p) => p.channel === ROOM);
    const ask = async (gw: GatewayProcess, text: string): Promise<string> => {
      const before = replies().length;
      slack.pushMessage({ channel: ROOM, channelType: "channel", user: OWNER, text: `<@${slack.botUserId}> ${text}` });
      await waitUntilGateway(gw, () => replies().length === before + 1, 15_000, `the reply to ${text}`);
      return slack.lastPostedTs(ROOM)!;
    };
    const first = await startSlackGateway(stateDir);

    const reply = await ask(first, "hello");
    slack.pushReaction({ channel: ROOM, ts: reply, user: OWNER, reaction: "tada" });
    slack.pushReaction({ channel: ROOM, ts: reply, user: STRANGER, reaction: "thumbsdown" });
    await reactionsHandled(first, 2);
    expect(await reviewQueue(first)).toEqual([]);

    slack.pushReaction({ channel: ROOM, ts: reply, user: OWNER, reaction: "-1" });
    await reactionsHandled(first, 3);
    const [down] = await reviewQueue(first);
    expect(down).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down" }, run: { sessionKey: expect.stringContaining(ROOM.toLowerCase()) } });
    const runId = down!.run.runId;

    // Taken back while it is still hers: the run leaves the queue; a stranger's removal does nothing.
    slack.pushReaction({ channel: ROOM, ts: reply, user: OWNER, reaction: "-1", removed: true });
    await reactionsHandled(first, 4);
    expect(await reviewQueue(first)).toEqual([]);
    slack.pushReaction({ channel: ROOM, ts: reply, user: OWNER, reaction: "-1" });
    slack.pushReaction({ channel: ROOM, ts: reply, user: STRANGER, reaction: "-1", removed: true });
    await reactionsHandled(first, 6);
    expect(await reviewQueue(first)).toMatchObject([{ reasons: ["negative-feedback"], feedback: { rating: "down" } }]);

    // +1 replaces it; her later removal of the -1 no longer matches the rating and leaves the +1.
    slack.pushReaction({ channel: ROOM, ts: reply, user: OWNER, reaction: "+1::skin-tone-2" });
    slack.pushReaction({ channel: ROOM, ts: reply, user: OWNER, reaction: "-1", removed: true });
    await reactionsHandled(first, 8);
    expect(await reviewQueue(first)).toEqual([]);
    await labelPass(first, runId);
    expect(await reviewQueue(first)).toEqual([expect.objectContaining({ reasons: ["manual"], feedback: expect.objectContaining({ rating: "up" }) })]);

    // The notices are unchanged: the owner's reactions reach her next message, the stranger's does not.
    const second = await ask(first, "what did I think?");
    const prompt = lastUserTextOf(chatRequests(servers.model.requests).at(-1)!);
    for (const code of ["tada", "-1", "+1::skin-tone-2"]) expect(prompt).toContain(`Slack reaction added: :${code}: by user-u0owner (@u0owner) on msg ${reply}`);
    expect(prompt).not.toContain(":thumbsdown:");
    await first.stop();

    // After a restart the owner's thumbsdown on the last reply still finds its run.
    const restarted = await startSlackGateway(stateDir);
    slack.pushReaction({ channel: ROOM, ts: second, user: OWNER, reaction: "thumbsdown" });
    await reactionsHandled(restarted, 1);
    const queued = (await reviewQueue(restarted)).find((i) => i.run.runId !== runId);
    expect(queued).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down" } });
    await restarted.stop();
  });
});
