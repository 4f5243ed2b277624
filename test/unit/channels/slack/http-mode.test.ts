import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChannelHttpRoute } from "../../../../src/channels/types.js";
import { startFakeSlack, type FakeSlack } from "../../../fakes/slack-server.js";
import { createSlackHarness, type SlackHarness } from "./helpers.js";

const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

function eventCallback(event: Record<string, unknown>): string {
  return JSON.stringify({ token: "verification", team_id: "T0FAKE", api_app_id: "A0FAKEAPP", type: "event_callback", event, event_id: "Ev0001", event_time: 1_700_000_000 });
}

const dm = (ts: string, text = "hello over http") => ({ type: "message", channel: "D0DM1", channel_type: "im", user: "U0ALICE", text, ts, event_ts: ts });

describe("Slack HTTP Events mode", () => {
  let fake: FakeSlack;
  let harness: SlackHarness;
  let route: ChannelHttpRoute;
  let release: () => void;

  beforeEach(async () => {
    fake = await startFakeSlack();
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The "gateway" never finishes taking a message during a test: acks must not wait for it.
    harness = createSlackHarness(fake, { mode: "http", signingSecret: SIGNING_SECRET }, () => gate);
    await harness.account.start();
    route = harness.routes[0]!;
  });

  afterEach(async () => {
    release();
    await harness.account.stop();
    await fake.close();
  });

  const post = (body: string, headers: Record<string, string>) => route.handler({ headers, rawBody: Buffer.from(body) });

  it("serves POST /slack/events on the gateway's port instead of opening its own", () => {
    expect(harness.routes).toHaveLength(1);
    expect(route).toMatchObject({ method: "POST", path: "/slack/events" });
    expect(harness.status).toMatchObject({ running: true, connected: true, mode: "http", botId: fake.botUserId });
    expect(fake.calls.map((call) => call.method)).toEqual(["auth.test"]);
  });

  it("accepts a signed event and answers 200 before the gateway has taken it", async () => {
    const body = eventCallback(dm("1700000000.000100"));
    const startedAt = Date.now();
    const response = await post(body, fake.signEvent(body, SIGNING_SECRET));
    expect(response.status).toBe(200);
    expect(Date.now() - startedAt).toBeLessThan(1000);
    await fake.waitFor(() => harness.inbound.length === 1);
    expect(harness.inbound[0]).toMatchObject({ messageId: "1700000000.000100", chatType: "direct", chatId: "D0DM1", senderId: "U0ALICE", text: "hello over http" });
  });

  it("answers Slack's retry of an event with 200 and passes the message on once", async () => {
    const body = eventCallback(dm("1700000000.000200"));
    expect((await post(body, fake.signEvent(body, SIGNING_SECRET))).status).toBe(200);
    const retry = await post(body, { ...fake.signEvent(body, SIGNING_SECRET), "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" });
    expect(retry.status).toBe(200);
    await fake.waitFor(() => harness.inbound.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.inbound).toHaveLength(1);
  });

  it("hands over a reaction_added event posted to the route", async () => {
    const body = fake.eventCallback(fake.reactionEvent({ channel: "D0DM1", ts: "1700000000.000300", user: "U0ALICE", reaction: "heart", itemUser: fake.botUserId }));
    expect((await post(body, fake.signEvent(body, SIGNING_SECRET))).status).toBe(200);
    await fake.waitFor(() => harness.reactions.length === 1);
    expect(harness.reactions[0]).toMatchObject({ chatType: "direct", chatId: "D0DM1", messageId: "1700000000.000300", onBotMessage: true, senderId: "U0ALICE", emoji: "heart" });
  });

  it("refuses a wrong signature with 401", async () => {
    const body = eventCallback(dm("1700000000.000300"));
    const response = await post(body, fake.signEvent(body, "not-the-signing-secret"));
    expect(response.status).toBe(401);
    expect(harness.inbound).toEqual([]);
    expect(harness.logs.join("")).toContain("Slack HTTP event refused: signature mismatch");
  });

  it("refuses a body changed after signing with 401", async () => {
    const body = eventCallback(dm("1700000000.000310"));
    const headers = fake.signEvent(body, SIGNING_SECRET);
    expect((await post(body.replace("hello over http", "tampered"), headers)).status).toBe(401);
  });

  it("refuses a stale timestamp with 401, even when correctly signed", async () => {
    const body = eventCallback(dm("1700000000.000400"));
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await post(body, fake.signEvent(body, SIGNING_SECRET, sixMinutesAgo))).status).toBe(401);
  });

  it("refuses a request without signature headers with 401", async () => {
    expect((await post(eventCallback(dm("1700000000.000500")), { "content-type": "application/json" })).status).toBe(401);
  });

  it("answers url_verification with the challenge", async () => {
    const body = JSON.stringify({ token: "verification", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", type: "url_verification" });
    const response = await post(body, fake.signEvent(body, SIGNING_SECRET));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body!)).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("answers a signed body that is not JSON with 400", async () => {
    const body = "{not json";
    expect((await post(body, fake.signEvent(body, SIGNING_SECRET))).status).toBe(400);
  });

  it("accepts form-encoded interactive payloads", async () => {
    const payload = JSON.stringify({ type: "block_actions", team: { id: "T0FAKE" }, user: { id: "U0ALICE" }, actions: [{ action_id: "approve", value: "yes" }] });
    const body = `payload=${encodeURIComponent(payload)}`;
    const response = await post(body, { ...fake.signEvent(body, SIGNING_SECRET), "content-type": "application/x-www-form-urlencoded" });
    expect(response.status).toBe(200);
    expect(harness.inbound).toEqual([]);
  });

  it("passes a press of a command button on as its presser's command, to be answered on its response_url", async () => {
    const payload = JSON.stringify({
      type: "block_actions",
      team: { id: "T0FAKE" },
      user: { id: "U0ALICE" },
      channel: { id: "D0DM1" },
      trigger_id: "42.1.fake",
      response_url: "https://hooks.slack.invalid/actions/1",
      container: { type: "message", message_ts: "1700000000.000700", channel_id: "D0DM1" },
      message: { ts: "1700000000.000700", text: "question" },
      actions: [{ type: "button", action_id: "openclaw_button_0_2", block_id: "openclaw_buttons_0", value: "/approve abc deny", action_ts: "1700000001.0" }],
    });
    const body = `payload=${encodeURIComponent(payload)}`;
    const response = await post(body, { ...fake.signEvent(body, SIGNING_SECRET), "content-type": "application/x-www-form-urlencoded" });
    expect(response.status).toBe(200);
    await fake.waitFor(() => harness.inbound.length === 1);
    expect(harness.inbound[0]).toMatchObject({
      messageId: "action:42.1.fake",
      chatId: "D0DM1",
      senderId: "U0ALICE",
      text: "/approve abc deny",
      nativeCommand: true,
      mentionedBot: true,
    });
  });

  it("answers 503 once the account is stopped, and registers the route again on restart", async () => {
    await harness.account.stop();
    const body = eventCallback(dm("1700000000.000600"));
    expect((await post(body, fake.signEvent(body, SIGNING_SECRET))).status).toBe(503);

    await harness.account.start();
    expect(harness.routes).toHaveLength(2);
    const again = await harness.routes[1]!.handler({ headers: fake.signEvent(body, SIGNING_SECRET), rawBody: Buffer.from(body) });
    expect(again.status).toBe(200);
    await fake.waitFor(() => harness.inbound.length === 1);
  });
});
