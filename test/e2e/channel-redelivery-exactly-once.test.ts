import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, waitUntil } from "../helpers/reliability.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * Exactly-once when Telegram delivers a message again, across kill -9, through a real gateway.
 * By webhook, the test POSTs updates as Telegram does (several at once, and again when Telegram
 * got no 200); by long polling, the gateway fetches them from the fake Bot API, which hands out
 * again what no later `offset` confirmed. Replies go to the fake Bot API.
 */

const OWNER = 111;
const SECRET = "redelivery-secret";
const DEBOUNCE_MS = 2_000;
const servers = useFakeServers();

/** `byChannel`: the window comes from `messages.inbound.byChannel.telegram`, over a global `debounceMs` of 0. */
async function start(stateDir: string, { debounceMs = DEBOUNCE_MS, polling = false, byChannel = false } = {}): Promise<GatewayProcess> {
  const updates = polling ? { pollingTimeoutSeconds: 1, pollingRetryBaseMs: 50 } : { webhookUrl: "https://bot.example.com/telegram-webhook", webhookSecret: SECRET };
  const telegramConfig = {
    botToken: servers.telegram.token,
    apiRoot: servers.telegram.url,
    ...updates,
    allowFrom: [String(OWNER)],
    typingIntervalSeconds: 0,
  };
  const gw = await startGateway({
    stateDir,
    configFile: {
      name: "openclaw.json",
      content: fakeModelConfig(servers.model, stateDir, {
        channels: { telegram: telegramConfig },
        messages: { inbound: byChannel ? { debounceMs: 0, byChannel: { telegram: debounceMs } } : { debounceMs } },
      }),
    },
  });
  servers.keep(gw);
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

/** A DM from the owner, as Telegram POSTs it to the webhook. */
function update(updateId: number, messageId: number, text: string): Record<string, unknown> {
  return {
    update_id: updateId,
    message: {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: OWNER, type: "private", first_name: "Owner" },
      from: { id: OWNER, is_bot: false, first_name: "Owner" },
      text,
    },
  };
}

/** Telegram's webhook delivery: resolves with the HTTP status (only 200 makes Telegram forget the update). */
async function post(gw: GatewayProcess, body: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${gw.httpUrl}/telegram-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

const readIfExists = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");

/** The gateway took the message in (its dedupe key is on disk). */
const claimed = (stateDir: string, messageId: number) =>
  waitUntil(() => readIfExists(path.join(stateDir, "channels", "inbound-dedupe.jsonl")).includes(`|${OWNER}|${messageId}"`), 10_000, `message ${messageId} taken in`);

/** Before a kill: the reply is recorded as delivered (a reply sent but not yet marked is the documented resend gap). */
const replyMarkedDelivered = (stateDir: string) =>
  waitUntil(() => readIfExists(path.join(stateDir, "channels", "delivery-ledger.jsonl")).includes('"state":"delivered"'), 10_000, "the reply marked delivered");

const replies = () => servers.telegram.messages(OWNER).map((m) => String(m.text));

/**
 * A fresh message after the redeliveries, answered last: a redelivered message answered again
 * would have been accepted before it, so its reply would come first.
 */
async function answerSentinel(gw: GatewayProcess, updateId: number): Promise<void> {
  expect(await post(gw, update(updateId, 90, "sentinel"))).toBe(200);
  await servers.telegram.waitFor(() => replies().includes("echo: sentinel"), 15_000);
}

/** The same, for a gateway that polls: the sentinel is queued at the fake Bot API. */
async function answerPolledSentinel(): Promise<void> {
  servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, messageId: 90, text: "sentinel" });
  await servers.telegram.waitFor(() => replies().includes("echo: sentinel"), 15_000);
}

describe("inbound debounce keeps exactly-once across kill -9 (Telegram webhook)", () => {
  it("a burst merged into one turn is answered once; after kill -9 and a restart, Telegram re-sending every message of the burst gets no second answer", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const stateDir = makeTempDir();
    const first = await start(stateDir);
    const burst = [update(501, 11, "one"), update(502, 12, "two")];
    expect(await Promise.all(burst.map((u) => post(first, u)))).toEqual([200, 200]);
    await servers.telegram.waitFor(() => replies().length === 1, 15_000);
    expect(replies()).toEqual(["echo: one\ntwo"]);
    await replyMarkedDelivered(stateDir);

    // The gateway dies; Telegram, which never saw the 200s, hands out the burst again.
    await first.stop("SIGKILL");
    const second = await start(stateDir);
    expect(await Promise.all(burst.map((u) => post(second, u)))).toEqual([200, 200]);
    await answerSentinel(second, 503);
    expect(replies()).toEqual(["echo: one\ntwo", "echo: sentinel"]);
    expect(chatRequests(servers.model).map(lastUserText)).toEqual(["one\ntwo", "sentinel"]);
  });

  it("a message whose debounce window was cut by kill -9 is not lost: acknowledged once parked, it is answered once after the restart, also when Telegram re-sends it", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const stateDir = makeTempDir();
    const first = await start(stateDir);
    // The 200 comes once the message is parked on disk, while its window is still open.
    expect(await post(first, update(601, 21, "one"))).toBe(200);
    await first.stop("SIGKILL");
    expect(chatRequests(servers.model)).toEqual([]);

    const second = await start(stateDir);
    expect(await post(second, update(601, 21, "one"))).toBe(200);
    await servers.telegram.waitFor(() => replies().length === 1, 15_000);
    await answerSentinel(second, 602);
    expect(replies()).toEqual(["echo: one", "echo: sentinel"]);
    expect(chatRequests(servers.model).map(lastUserText)).toEqual(["one", "sentinel"]);
  });
});

describe("inbound debounce under Telegram long polling (the default mode)", () => {
  it("two quick messages from one sender are one turn containing both, answered by one reply (the window from messages.inbound.byChannel)", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const stateDir = makeTempDir();
    await start(stateDir, { polling: true, byChannel: true });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, messageId: 11, text: "one" });
    // The first message waits in its window; the poller must still take the second one in.
    await claimed(stateDir, 11);
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, messageId: 12, text: "two" });
    await servers.telegram.waitFor(() => replies().length >= 1, 15_000);
    await answerPolledSentinel();
    expect(replies()).toEqual(["echo: one\ntwo", "echo: sentinel"]);
    expect(chatRequests(servers.model).map(lastUserText)).toEqual(["one\ntwo", "sentinel"]);
  });

  it("a burst acknowledged to Telegram while it waits in the window, then killed -9, is answered once, merged, after the restart", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const stateDir = makeTempDir();
    const first = await start(stateDir, { polling: true });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, messageId: 21, text: "one" });
    await claimed(stateDir, 21);
    const last = servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, messageId: 22, text: "two" });
    // Both acknowledged (a poll's offset moved past them): Telegram will not hand them out again.
    const acknowledged = Number(last.update_id) + 1;
    await waitUntil(() => servers.telegram.getUpdatesOffsets.includes(acknowledged), 10_000, "the burst acknowledged to Telegram");
    await first.stop("SIGKILL");
    expect(replies()).toEqual([]);

    await start(stateDir, { polling: true });
    await servers.telegram.waitFor(() => replies().length >= 1, 15_000);
    await answerPolledSentinel();
    expect(replies()).toEqual(["echo: one\ntwo", "echo: sentinel"]);
    expect(chatRequests(servers.model).map(lastUserText)).toEqual(["one\ntwo", "sentinel"]);
  });
});

describe("a redelivery later than the inbound dedupe window (20 minutes; the idempotency ledger keeps a day)", () => {
  it("is not answered again, neither when it comes nor after the next restart", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const stateDir = makeTempDir();
    const first = await start(stateDir, { debounceMs: 0 });
    const message = update(701, 31, "remember");
    expect(await post(first, message)).toBe(200);
    await servers.telegram.waitFor(() => replies().length === 1, 10_000);
    await replyMarkedDelivered(stateDir);
    await first.stop("SIGKILL");

    // Down longer than the dedupe window: its keys are expired (dropped) when the cache opens.
    fs.rmSync(path.join(stateDir, "channels", "inbound-dedupe.jsonl"));
    const second = await start(stateDir, { debounceMs: 0 });
    expect(await post(second, message)).toBe(200);
    await second.stop("SIGKILL");
    expect(replies()).toEqual(["echo: remember"]);

    const third = await start(stateDir, { debounceMs: 0 });
    await answerSentinel(third, 702);
    expect(replies()).toEqual(["echo: remember", "echo: sentinel"]);
    expect(chatRequests(servers.model).map(lastUserText)).toEqual(["remember", "sentinel"]);
  });
});
