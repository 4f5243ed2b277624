import { beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../fakes/slack-server.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { useFakeSlackGateways } from "../helpers/fake-slack-gateways.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { allTextOf, chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { waitUntilGateway } from "../helpers/reliability.js";

/**
 * Slack thread history through a real gateway and @slack/bolt: the bot mentioned in a thread it has
 * no session for reads the thread back (`conversations.replies`) and shows the model its earlier
 * messages as untrusted context, once, when the thread's session starts; `thread.initialHistoryLimit`
 * caps them; a refused read (missing scope) is logged, naming the scope, and the message is still answered.
 */
const ASKER = "U0ASKER";
const INTRO = "[Thread history - for context]";
const BEGIN = "<<<BEGIN_UNTRUSTED_CHAT_HISTORY>>>";
const END = "<<<END_UNTRUSTED_CHAT_HISTORY>>>";
const CURRENT = "[Current message - respond to this]";
const servers = useFakeServers();
const slackGateways = useFakeSlackGateways(servers);
let slack: FakeSlack;
beforeAll(() => {
  slack = slackGateways.slack;
});

function startSlackGateway(extra: Record<string, unknown>): Promise<GatewayProcess> {
  servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).slice(-40)}` }));
  return slackGateways.start({ appToken: slack.appToken, groupPolicy: "open", ...extra });
}

/** A thread of three messages by others, written before the bot was there (never delivered to it). */
function threadWithoutBot(channel: string): string {
  const root = slack.pushMessage({ channel, channelType: "channel", user: "U0ANN", text: "the deploy failed last night", deliver: false });
  slack.pushMessage({ channel, channelType: "channel", user: "U0BOB", text: "it was the migration", threadTs: root.ts, deliver: false });
  slack.pushMessage({ channel, channelType: "channel", user: "U0CAT", text: "rolled back at two", threadTs: root.ts, deliver: false });
  return root.ts;
}

/** The bot mentioned in the thread; resolves with the model's prompt once the answer is in the thread. */
async function mentionInThread(gw: GatewayProcess, channel: string, threadTs: string, text: string): Promise<string> {
  const before = slack.posted.filter((p) => p.channel === channel && p.thread_ts === threadTs).length;
  slack.pushMessage({ channel, channelType: "channel", user: ASKER, text: `<@${slack.botUserId}> ${text}`, threadTs });
  await waitUntilGateway(gw, () => slack.posted.filter((p) => p.channel === channel && p.thread_ts === threadTs).length > before, 15_000, `the answer to "${text}"`);
  const prompt = chatRequests(servers.model.requests)
    .map((r) => lastUserTextOf(r))
    .find((p) => p.includes(text));
  if (prompt === undefined) throw new Error(`no model request carried "${text}"`);
  return prompt;
}

const repliesCalls = (channel: string) => slack.calls.filter((c) => c.method === "conversations.replies" && c.body.channel === channel).length;

describe("Slack thread history (thread.initialHistoryLimit)", { timeout: 60_000 }, () => {
  it("a new thread session starts with the thread's earlier messages, as untrusted context, read once", async () => {
    const channel = "C0THREADA";
    const gw = await startSlackGateway({});
    const threadTs = threadWithoutBot(channel);
    const prompt = await mentionInThread(gw, channel, threadTs, "what happened?");

    const at = (needle: string) => {
      const i = prompt.indexOf(needle);
      expect(i, `"${needle}" in the prompt:\n${prompt}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const lines = ["[user-u0ann] the deploy failed last night", "[user-u0bob] it was the migration", "[user-u0cat] rolled back at two"].map(at);
    expect(at(INTRO)).toBeLessThan(at(BEGIN));
    expect(at(BEGIN)).toBeLessThan(lines[0]!);
    expect(lines[0]!).toBeLessThan(lines[1]!);
    expect(lines[1]!).toBeLessThan(lines[2]!);
    expect(lines[2]!).toBeLessThan(at(END));
    expect(at(END)).toBeLessThan(at(CURRENT));
    expect(at(CURRENT)).toBeLessThan(at("what happened?"));
    // The current message is not history.
    expect(prompt.slice(at(BEGIN), at(END))).not.toContain("what happened?");
    expect(repliesCalls(channel)).toBe(1);

    const next = await mentionInThread(gw, channel, threadTs, "and the fix?");
    expect(next).not.toContain(INTRO);
    expect(next).not.toContain(BEGIN);
    expect(repliesCalls(channel)).toBe(1);
  });

  it("thread.initialHistoryLimit: 2 shows only the last two earlier messages", async () => {
    const channel = "C0THREADB";
    const gw = await startSlackGateway({ thread: { initialHistoryLimit: 2 } });
    const threadTs = threadWithoutBot(channel);
    const prompt = await mentionInThread(gw, channel, threadTs, "summary please");
    expect(prompt).toContain(INTRO);
    expect(prompt).not.toContain("the deploy failed last night");
    expect(prompt).toContain("[user-u0bob] it was the migration");
    expect(prompt).toContain("[user-u0cat] rolled back at two");
  });

  it("a refused read (missing_scope) is logged naming the scope, and the message is answered without history", async () => {
    const channel = "C0THREADC";
    const gw = await startSlackGateway({});
    const threadTs = threadWithoutBot(channel);
    slack.failNext("conversations.replies", { error: "missing_scope" });
    const prompt = await mentionInThread(gw, channel, threadTs, "still there?");
    expect(prompt).not.toContain(INTRO);
    expect(prompt).not.toContain("the deploy failed last night");
    expect(repliesCalls(channel)).toBe(1);
    await gw.waitForOutput(/conversations\.replies failed: missing_scope.*channels:history/, 5_000);
  });
  it("thread.inheritParent: a new thread session starts with its channel's conversation, and the channel's session keeps its own", async () => {
    const channel = "C0INHERIT";
    const gw = await startSlackGateway({ thread: { inheritParent: true, initialHistoryLimit: 0 } });
    const before = slack.posted.filter((p) => p.channel === channel).length;
    const root = slack.pushMessage({ channel, channelType: "channel", user: ASKER, text: `<@${slack.botUserId}> the code word is pelican` });
    await waitUntilGateway(gw, () => slack.posted.filter((p) => p.channel === channel).length > before, 15_000, "the channel's answer");

    await mentionInThread(gw, channel, root.ts, "what is the code word?");
    const threadRequest = chatRequests(servers.model.requests).find((r) => lastUserTextOf(r).includes("what is the code word?"))!;
    const earlier = allTextOf(threadRequest).split("what is the code word?")[0]!;
    expect(earlier).toContain("the code word is pelican");
    expect(earlier).toContain("re: ");
  });
});
