import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, waitUntil } from "../helpers/reliability.js";

/**
 * Slack's slash command (`channels.slack.slashCommand`) end to end: the real @slack/bolt in the
 * gateway receives `/openclaw …` from a fake Slack, over Socket Mode (a `slash_commands`
 * envelope) and over HTTP (a signed form POST to the gateway's port), and answers on the
 * command's `response_url`.
 */
const SIGNING_SECRET = "fake-signing-secret";
const OWNER = "U201";
const OWNER_DM = "D201";
const MEMBER = "U202";
const CHANNEL = "C0SLASH";

let model: FakeModelServer;
let slack: FakeSlack;

async function startSlackGateway(mode: "socket" | "http", slashCommand: Record<string, unknown>, slackExtra: Record<string, unknown> = {}): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const secrets = mode === "socket" ? { appToken: slack.appToken } : { signingSecret: SIGNING_SECRET };
  const slackConfig = { mode, botToken: slack.botToken, ...secrets, slackApiUrl: slack.apiUrl, allowFrom: [OWNER], channels: { "*": {} }, slashCommand, ...slackExtra };
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { slack: slackConfig } }) } });
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack?.close();
  await model?.close();
});

async function answers(triggerId: string, count: number): Promise<Array<{ text: string; response_type?: string }>> {
  await waitUntil(() => slack.responses(triggerId).length >= count, 15_000, `${count} answer(s) on the response_url`);
  return slack.responses(triggerId);
}

describe("Slack slash command over Socket Mode", () => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startSlackGateway("socket", { enabled: true });
    await waitUntil(() => slack.socketConnections > 0, 10_000, "the Socket Mode connection");
  });
  afterAll(async () => {
    await gw?.stop("SIGKILL");
  });

  it("acks the envelope and answers a chat command ephemerally, without the model", async () => {
    const run = slack.slashCommand({ command: "/openclaw", text: "/whoami", user: OWNER, channel: OWNER_DM });
    run.deliverSocket();
    const [answer] = await answers(run.fields.trigger_id!, 1);
    expect(answer!.response_type).toBe("ephemeral");
    expect(answer!.text).toContain(`Your id: ${OWNER}`);
    expect(slack.acks.has(run.envelopeId)).toBe(true);
    expect(chatRequests(model)).toHaveLength(0);
  });

  it("hands other text to the agent as a message in that channel (no @mention needed) and answers on the response_url", async () => {
    const run = slack.slashCommand({ command: "/openclaw", text: "what is new?", user: MEMBER, channel: CHANNEL });
    run.deliverSocket();
    const [answer] = await answers(run.fields.trigger_id!, 1);
    expect(answer!.text).toContain("model:");
    expect(answer!.text).toContain("what is new?");
    // Nothing was posted to the channel for everyone.
    expect(slack.posted.filter((p) => p.channel === CHANNEL)).toEqual([]);
  });

  it("answers an empty command with its usage", async () => {
    const run = slack.slashCommand({ command: "/openclaw", text: "  ", user: OWNER, channel: OWNER_DM });
    run.deliverSocket();
    const [answer] = await answers(run.fields.trigger_id!, 1);
    expect(answer!.text).toMatch(/^Usage: \/openclaw <message>/);
  });
});

describe("Slack slash command over HTTP (a renamed, in-channel command)", () => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startSlackGateway("http", { enabled: true, name: "claw", ephemeral: false });
  });
  afterAll(async () => {
    await gw?.stop("SIGKILL");
  });

  it("acks the signed form POST with an empty 200 and answers in the channel", async () => {
    const run = slack.slashCommand({ command: "/claw", text: "/whoami", user: OWNER, channel: OWNER_DM });
    const body = new URLSearchParams(run.fields).toString();
    const headers = { ...slack.signEvent(body, SIGNING_SECRET), "content-type": "application/x-www-form-urlencoded" };
    const res = await fetch(`${gw.httpUrl}/slack/events`, { method: "POST", headers, body });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    const [answer] = await answers(run.fields.trigger_id!, 1);
    expect(answer!.response_type).toBe("in_channel");
    expect(answer!.text).toContain(`Your id: ${OWNER}`);
  });
});

describe("Slack slash command with an answer in several parts", () => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startSlackGateway("socket", { enabled: true }, { textChunkLimit: 100 });
    await waitUntil(() => slack.socketConnections > 0, 10_000, "the Socket Mode connection");
  });
  afterAll(async () => {
    await gw?.stop("SIGKILL");
  });

  it("sends the first five parts to the response_url and posts the rest to the channel, outside any thread", async () => {
    // Seven paragraphs, each too long to share a 100-character part with the next.
    const parts = Array.from({ length: 7 }, (_, i) => `part ${i + 1} of a long answer, written out to about sixty characters`);
    model.setResponder(() => ({ text: parts.join("\n\n") }));
    const run = slack.slashCommand({ command: "/openclaw", text: "tell me everything", user: OWNER, channel: CHANNEL });
    run.deliverSocket();
    await waitUntil(() => slack.posted.filter((p) => p.channel === CHANNEL).length >= 2, 15_000, "the parts past Slack's five answers");
    expect((await answers(run.fields.trigger_id!, 5)).map((a) => a.text)).toEqual(parts.slice(0, 5));
    const posted = slack.posted.filter((p) => p.channel === CHANNEL);
    expect(posted.map((p) => p.text)).toEqual(parts.slice(5));
    expect(posted.map((p) => p.thread_ts)).toEqual([undefined, undefined]);
  });
});
