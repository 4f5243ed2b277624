import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { slackChannelConfig } from "../helpers/slack-channel-config.js";
import { fakeAgentCommand } from "../helpers/acp-agent.js";
import { chatRequests, lastMessageOf, lastToolResultOf } from "../helpers/model-request.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `sessions_spawn({runtime: "acp", thread: true})` on Slack: the ACP child gets a thread of its
 * own, its replies are posted there, and what the user writes in the thread is its next prompt
 * (no model turn); the parent still gets the round's result once.
 */
const CHANNEL = "C0ACPTHREAD";
const OWNER = "U200";
const BEGIN = "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>";

let model: FakeModelServer;
let slack: FakeSlack;
let gw: GatewayProcess;

beforeAll(async () => {
  model = await startFakeModelServer();
  slack = await startFakeSlack();
  const stateDir = makeTempDir();
  const slackConfig = slackChannelConfig(slack, { allowFrom: [OWNER], channels: { "*": {} } });
  const config = fakeModelConfig(model, stateDir, {
    channels: { slack: slackConfig },
    acp: { enabled: true, defaultAgent: "coder", agents: { coder: fakeAgentCommand("--log", path.join(stateDir, "agent.log"), "--marker", stateDir) } },
  });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  await gw.waitForOutput(/Slack Socket Mode connected/, 10_000);
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await slack?.close();
  await model?.close();
});

const postsIn = (threadTs?: string) => slack.posted.map((p, i) => ({ ...p, ts: slack.postedTs[i]! })).filter((p) => p.channel === CHANNEL && p.thread_ts === threadTs);
const say = (text: string, threadTs?: string) => slack.pushMessage({ channel: CHANNEL, channelType: "channel", user: OWNER, text, ...(threadTs ? { threadTs } : {}) });

describe('sessions_spawn runtime "acp" with thread: true (Slack)', () => {
  it("posts the agent's replies in its own thread and sends the thread's messages to it", async () => {
    model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "tool") return { text: lastToolResultOf(req)?.status === "accepted" ? "Started the coder in a thread." : `refused: ${lastToolResultOf(req)?.error}` };
      if (last.text.includes(BEGIN)) return { text: "parent: the coder reported back" };
      if (last.text.includes("check the build"))
        return { toolCalls: [{ name: "sessions_spawn", arguments: { runtime: "acp", task: "check the build #echo", label: "build checker", thread: true } }] };
      return { text: `parent heard: ${last.text}` };
    });
    say(`<@${slack.botUserId}> please check the build`);
    await waitUntil(() => postsIn().some((p) => p.text === "build checker"), 20_000, "the thread root");
    const root = postsIn().find((p) => p.text === "build checker")!;
    await waitUntil(() => postsIn(root.ts).length >= 1, 20_000, "the agent's reply in its thread");
    expect(postsIn(root.ts)[0]!.text).toBe("echo: check the build");
    await waitUntil(() => postsIn().some((p) => p.text === "parent: the coder reported back"), 20_000, "the parent's answer");

    const modelCalls = chatRequests(model.requests).length;
    say("and run the tests #echo", root.ts);
    await waitUntil(() => postsIn(root.ts).length >= 2, 20_000, "the agent's answer to the thread message");
    expect(postsIn(root.ts)[1]!.text).toBe("echo: [user-u200] and run the tests");
    // The thread's message went to the agent, not to a model turn; the parent hears of the new round once.
    await waitUntil(() => postsIn().filter((p) => p.text === "parent: the coder reported back").length >= 2, 20_000, "the second round's announcement answered");
    expect(
      chatRequests(model.requests)
        .slice(modelCalls)
        .every((r) => JSON.stringify(r.body).includes(BEGIN)),
    ).toBe(true);
    expect(postsIn(root.ts)).toHaveLength(2);
    expect(slack.unknownMethods).toEqual([]);
  }, 90_000);
});
