import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { slackChannelConfig } from "../helpers/slack-channel-config.js";
import { chatRequests, lastUserText, sleep, waitUntil } from "../helpers/reliability.js";

/**
 * A reload that restarts or removes a Slack account while the old account still holds a message
 * Slack already counts as delivered (the event is acked before it is handed over; here the
 * sender's `users.info` lookup is held meanwhile). The message is handed over once, under the
 * new config, or dropped when the account is gone.
 */

/** Senders allowed by the first config; each test has its own, as `slack.posted` spans the file. */
const ALICE = { userId: "U201", dmChannel: "D201" };
const BOB = { userId: "U202", dmChannel: "D202" };
const CAROL = { userId: "U203", dmChannel: "D203" };
const DAVE = { userId: "U204", dmChannel: "D204" };

let model: FakeModelServer;
let slack: FakeSlack;
let gw: GatewayProcess | undefined;

function writeConfig(stateDir: string, slackConfig: Record<string, unknown> | undefined): string {
  const content = fakeModelConfig(model, stateDir, { ...(slackConfig ? { channels: { slack: slackConfig } } : {}), session: { dmScope: "per-channel-peer" } });
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), content);
  return content;
}

async function startWith(slackConfig: Record<string, unknown>): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const started = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: writeConfig(stateDir, slackConfig) } });
  gw = started;
  await started.waitForOutput(/channel account started/, 10_000);
  return started;
}

/** DMs from `senders`, each held in the old account on its sender's `users.info` lookup. */
async function heldDms(senders: (typeof ALICE)[]): Promise<void> {
  const before = slack.calls.filter((c) => c.method === "users.info").length;
  for (const sender of senders) {
    slack.hangNext("users.info");
    slack.pushMessage({ channel: sender.dmChannel, channelType: "im", user: sender.userId, text: `hello from ${sender.userId}` });
  }
  await slack.waitFor(() => slack.calls.filter((c) => c.method === "users.info").length === before + senders.length, 10_000);
}

const repliesIn = (channel: string) => slack.posted.filter((p) => p.channel === channel).map((p) => p.text);

beforeAll(async () => {
  model = await startFakeModelServer();
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack?.close();
  await model?.close();
});
afterEach(async () => {
  slack.release();
  await gw?.stop("SIGKILL");
  gw = undefined;
  // A call the killed gateway had just sent may still be unread on its connection: dropped, it never counts in the next test.
  slack.dropConnections();
  slack.clearArmed();
  model.dropConnections();
  model.reset();
});

describe("a message the old account held when a reload replaced it", () => {
  it("is dropped, with a line naming the account, when the reload removed the account", async () => {
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const started = await startWith(slackChannelConfig(slack, { allowFrom: [CAROL.userId] }));
    await heldDms([CAROL]);
    writeConfig(started.stateDir, undefined);
    await started.waitForOutput(/channel config changed; restarting the account/, 10_000);
    slack.release();
    await started.waitForOutput(/inbound message dropped: channel slack account default was removed from the config while the message was being handed over/, 10_000);
    await sleep(500);
    expect(chatRequests(model)).toHaveLength(0);
    expect(repliesIn(CAROL.dmChannel)).toEqual([]);
  });

  it("goes through the restarted account once, under the new config's allowlist", async () => {
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const started = await startWith(slackChannelConfig(slack, { dmPolicy: "allowlist", allowFrom: [ALICE.userId, BOB.userId] }));
    await heldDms([ALICE, BOB]);
    // The new config no longer allows Alice (and offers her no pairing either).
    writeConfig(started.stateDir, slackChannelConfig(slack, { dmPolicy: "allowlist", allowFrom: [BOB.userId] }));
    await started.waitForOutput(/channel config changed; restarting the account/, 10_000);
    await waitUntil(() => (started.output().match(/channel account started/g) ?? []).length === 2, 10_000, "the restarted account");
    slack.release();
    await waitUntil(() => repliesIn(BOB.dmChannel).length === 1, 10_000, "Bob's reply");
    await sleep(1_000);
    expect(repliesIn(BOB.dmChannel)).toEqual([`echo: hello from ${BOB.userId}`]);
    expect(repliesIn(ALICE.dmChannel)).toEqual([]);
    expect(chatRequests(model)).toHaveLength(1);
  });

  it("goes through the restarted account once when the new config still allows its sender", async () => {
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const started = await startWith(slackChannelConfig(slack, { allowFrom: [DAVE.userId] }));
    await heldDms([DAVE]);
    writeConfig(started.stateDir, slackChannelConfig(slack, { allowFrom: [DAVE.userId], unfurlLinks: true }));
    await started.waitForOutput(/channel config changed; restarting the account/, 10_000);
    slack.release();
    await waitUntil(() => repliesIn(DAVE.dmChannel).length === 1, 10_000, "Dave's reply");
    await sleep(1_000);
    expect(repliesIn(DAVE.dmChannel)).toEqual([`echo: hello from ${DAVE.userId}`]);
    expect(chatRequests(model)).toHaveLength(1);
  });
});
