import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { slackChannelConfig } from "../helpers/slack-channel-config.js";
import { chatRequests, isSubagentRequest, lastMessageOf, lastToolResultOf, lastUserTextOf } from "../helpers/model-request.js";
import { sleep, waitUntil } from "../helpers/reliability.js";
import { CURRENT_INTRO } from "../../src/channels/dispatch/group-history.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * Thread-bound sub-agents end to end, through the real gateway and the real @slack/bolt over
 * Socket Mode against a fake Slack: a parent in a channel spawns with `thread: true`, the thread
 * root appears, the child answers inside it, the user talks to the child there, and `/unfocus` /
 * `/focus` hand the thread back and forth. A WebSocket-only session cannot get a thread.
 */

const CHANNEL = "C0SPAWN";
const OWNER = "U100";
const BEGIN = "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>";

let model: FakeModelServer;
let slack: FakeSlack;
let gw: GatewayProcess;
let sock: TestSocket;

beforeAll(async () => {
  model = await startFakeModelServer();
  slack = await startFakeSlack();
  const stateDir = makeTempDir();
  const slackConfig = slackChannelConfig(slack, { allowFrom: [OWNER], channels: { "*": {} } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { slack: slackConfig } }) } });
  await gw.waitForOutput(/Slack Socket Mode connected/, 10_000);
  sock = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await slack?.close();
  await model?.close();
});

/**
 * The parent spawns on "dig into the logs" and answers the announcement; the child reports on
 * its task and echoes whatever else it is told, so every reply says who wrote it.
 */
function script(): void {
  model.setResponder((req) => {
    if (isSubagentRequest(req)) {
      const text = lastUserTextOf(req);
      return { text: text.startsWith("[Subagent Task]") ? "child: the logs show 3 errors" : `child heard: ${text}` };
    }
    const last = lastMessageOf(req);
    if (last.role === "tool") {
      const result = lastToolResultOf(req);
      return { text: result?.status === "accepted" ? "Started a helper in a thread." : `spawn refused: ${result?.error}` };
    }
    if (last.text.includes(BEGIN)) return { text: "parent: the helper found 3 errors" };
    if (last.text.includes("dig into the logs")) return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "Dig into the logs.", label: "log digger", thread: true } }] };
    // A new thread session's first message has the thread's history in front: the parent answers what follows it.
    const current = last.text.includes(CURRENT_INTRO) ? last.text.slice(last.text.indexOf(CURRENT_INTRO) + CURRENT_INTRO.length + 1) : last.text;
    return { text: `parent heard: ${current}` };
  });
}

const postsIn = (threadTs?: string) => slack.posted.map((p, i) => ({ ...p, ts: slack.postedTs[i]! })).filter((p) => p.channel === CHANNEL && p.thread_ts === threadTs);
const say = (text: string, threadTs?: string) => slack.pushMessage({ channel: CHANNEL, channelType: "channel", user: OWNER, text, ...(threadTs ? { threadTs } : {}) });
const mention = (text: string) => `<@${slack.botUserId}> ${text}`;

async function replyInThread(threadTs: string, count: number, what: string): Promise<string> {
  await waitUntil(() => postsIn(threadTs).length >= count, 15_000, what);
  return postsIn(threadTs)[count - 1]!.text;
}

describe("sessions_spawn with thread: true (Slack)", () => {
  it("opens a thread for the child, answers there, and routes the thread to the child until /unfocus; /focus binds it again", async () => {
    script();
    say(mention("please dig into the logs"));

    // The thread root (the label), the parent's own answers top-level, the child's inside the thread.
    await waitUntil(() => postsIn().some((p) => p.text === "log digger"), 15_000, "the thread root");
    const root = postsIn().find((p) => p.text === "log digger")!;
    expect(await replyInThread(root.ts, 1, "the child's reply in its thread")).toBe("child: the logs show 3 errors");
    await waitUntil(() => postsIn().some((p) => p.text === "parent: the helper found 3 errors"), 15_000, "the parent's answer to the announcement");
    expect(postsIn().map((p) => p.text)).toEqual(["log digger", "Started a helper in a thread.", "parent: the helper found 3 errors"]);
    const spawned = chatRequests(model.requests)
      .map(lastToolResultOf)
      .find((r) => r?.status === "accepted")!;
    expect(spawned).toMatchObject({ status: "accepted", mode: "session" });

    // A message in the thread reaches the child (a sub-agent request), without any @mention.
    const before = chatRequests(model.requests).length;
    say("any warnings too?", root.ts);
    expect(await replyInThread(root.ts, 2, "the child's answer in the thread")).toBe("child heard: [user-u100] any warnings too?");
    const toChild = chatRequests(model.requests).slice(before);
    expect(toChild).toHaveLength(1);
    expect(isSubagentRequest(toChild[0]!)).toBe(true);

    // /unfocus: the thread is the channel's again; the next message there goes to its own session.
    say("/unfocus", root.ts);
    expect(await replyInThread(root.ts, 3, "the /unfocus answer")).toBe('Unfocused: messages in this thread no longer go to sub-agent "log digger".');
    const beforeNormal = chatRequests(model.requests).length;
    say(mention("who is this?"), root.ts);
    expect(await replyInThread(root.ts, 4, "the normal route's answer")).toBe("parent heard: [user-u100] who is this?");
    const toParent = chatRequests(model.requests).slice(beforeNormal);
    expect(toParent.some(isSubagentRequest)).toBe(false);
    // The thread is new to the channel's session: its earlier messages (the child's answers among them) come first.
    expect(lastUserTextOf(toParent[0]!)).toMatch(/^\[Thread history - for context\][\s\S]*child heard: \[user-u100\] any warnings too\?/);

    // /focus <label> binds it again: the child answers the thread once more.
    say(mention("/focus log digger"), root.ts);
    expect(await replyInThread(root.ts, 5, "the /focus answer")).toMatch(/^🎯 Focused: messages in this thread now go to sub-agent "log digger"/);
    const beforeFocus = chatRequests(model.requests).length;
    say("back to you", root.ts);
    expect(await replyInThread(root.ts, 6, "the child's answer after /focus")).toBe("child heard: [user-u100] back to you");
    expect(chatRequests(model.requests).slice(beforeFocus).every(isSubagentRequest)).toBe(true);

    expect(slack.unknownMethods).toEqual([]);
  });

  it("refuses thread: true from a WebSocket-only session with an error the model can act on", async () => {
    script();
    const idempotencyKey = randomUUID();
    expect((await sock.request("chat.send", { sessionKey: "ws-only", message: "dig into the logs", idempotencyKey })).ok).toBe(true);
    const final = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === idempotencyKey && f.payload.state === "final", 15_000);
    expect(final.payload.message.content[0].text).toBe("spawn refused: THREAD_UNAVAILABLE");
    const refusal = chatRequests(model.requests)
      .map(lastToolResultOf)
      .find((r) => r?.error === "THREAD_UNAVAILABLE")!;
    expect(refusal.message).toMatch(/not in a chat channel/);
    expect(refusal.suggestion).toMatch(/Spawn without thread/);
  });

  it("session.threadBindings: a binding unused past idleHours is dropped (the thread is the channel's again); spawnSessions false refuses thread: true", async () => {
    script();
    const root = postsIn().find((p) => p.text === "log digger")!;
    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    // 0.0003 h is about a second: the binding /focus made in the test before has run out once it applies.
    expect((await runCli(["config", "set", "session.threadBindings", "{idleHours: 0.0003, spawnSessions: false}"], env)).code).toBe(0);
    await gw.waitForOutput(/"changedPaths":\[[^\]]*session\.threadBindings[^\]]*\].*"config reloaded"/, 15_000);
    await sleep(1_500);
    const count = postsIn(root.ts).length;
    const before = chatRequests(model.requests).length;
    say(mention("still there?"), root.ts);
    expect(await replyInThread(root.ts, count + 1, "the channel's own answer")).toBe("parent heard: [user-u100] still there?");
    expect(chatRequests(model.requests).slice(before).some(isSubagentRequest)).toBe(false);
    await gw.waitForOutput(/thread binding dropped: unused for session\.threadBindings\.idleHours/, 5_000);

    say(mention("please dig into the logs"));
    await waitUntil(() => postsIn().some((p) => p.text.startsWith("spawn refused")), 15_000, "the refused spawn's answer");
    const refusal = chatRequests(model.requests)
      .map(lastToolResultOf)
      .filter((r) => r?.error === "THREAD_UNAVAILABLE")
      .at(-1)!;
    expect(refusal.message).toBe("Thread-bound sub-agents are turned off here (session.threadBindings.spawnSessions: false).");
  });
});
