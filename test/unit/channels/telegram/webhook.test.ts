import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChannelHttpRoute } from "../../../../src/channels/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../../fakes/telegram-server.js";
import { accountFactory, fakeConfig, waitUntil } from "./helpers.js";

let fake: FakeTelegram;
const accounts = accountFactory();
const SECRET = "hook-secret_123";

beforeEach(async () => {
  fake = await startFakeTelegram({ botUsername: "clawd_bot" });
});

afterEach(async () => {
  await accounts.cleanup();
  await fake.close();
});

function webhookAccount(extra: Record<string, unknown> = {}) {
  return accounts.create(fakeConfig(fake, { webhookUrl: "https://bot.example.com/telegram-webhook", webhookSecret: SECRET, ...extra }));
}

/** `secret: null` sends no secret header at all. */
function post(route: ChannelHttpRoute, body: unknown, secret: string | null = SECRET) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (secret !== null) headers["x-telegram-bot-api-secret-token"] = secret;
  return route.handler({ headers, rawBody: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)) });
}

const update = {
  update_id: 501,
  message: { message_id: 11, date: 1_700_000_000, chat: { id: 42, type: "private" }, from: { id: 42, is_bot: false, first_name: "Ada" }, text: "via webhook" },
};

describe("telegram webhook mode", () => {
  it("registers the webhook with its secret, serves the route, and does not poll", async () => {
    const { account, routes, status } = webhookAccount({ webhookPath: "/tg/hook" });
    await account.start();
    expect(fake.webhook).toEqual({ url: "https://bot.example.com/telegram-webhook", secretToken: SECRET });
    expect(routes.map((route) => [route.method, route.path])).toEqual([["POST", "/tg/hook"]]);
    expect(status).toMatchObject({ mode: "webhook", connected: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.getUpdatesCalls).toBe(0);
  });

  it("delivers an update and answers 200 with the durable-delivery header after onInbound resolved", async () => {
    const { account, routes, inbound, setInbound } = webhookAccount();
    await account.start();
    expect(routes[0]!.path).toBe("/telegram-webhook");
    let recorded = false;
    setInbound(async (envelope) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      inbound.push(envelope);
      recorded = true;
    });
    const reply = await post(routes[0]!, update);
    expect(recorded).toBe(true);
    expect(reply).toEqual({ status: 200, headers: { "x-openclaw-delivery-accepted": "durable" } });
    expect(inbound).toEqual([{ messageId: "11", chatType: "direct", chatId: "42", senderId: "42", senderName: "Ada", text: "via webhook", timestamp: 1_700_000_000_000 }]);
  });

  it("refuses a missing or wrong secret with 403 and a bad body with 400", async () => {
    const { account, routes, inbound } = webhookAccount();
    await account.start();
    expect((await post(routes[0]!, update, null)).status).toBe(403);
    expect((await post(routes[0]!, update, "hook-secret_124")).status).toBe(403);
    expect((await post(routes[0]!, "{not json")).status).toBe(400);
    expect((await post(routes[0]!, { message: {} })).status).toBe(400);
    expect(inbound).toEqual([]);
  });

  it("answers 500 when the gateway could not record the update, so Telegram retries it", async () => {
    const { account, routes, setInbound } = webhookAccount();
    await account.start();
    setInbound(async () => {
      throw new Error("disk full");
    });
    expect((await post(routes[0]!, update)).status).toBe(500);
  });

  it("answers 503 until getMe has answered, and after stop", async () => {
    fake.failNext("getMe", { status: 500 });
    const { account, routes, inbound, status } = webhookAccount();
    await account.start();
    expect(status.connected).toBe(false);
    expect((await post(routes[0]!, update)).status).toBe(503);
    await waitUntil(() => status.connected === true);
    expect((await post(routes[0]!, update)).status).toBe(200);
    expect(inbound).toHaveLength(1);
    await account.stop();
    expect((await post(routes[0]!, update)).status).toBe(503);
  });
});
