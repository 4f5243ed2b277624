import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswerTo, sendTwoBehindHeldFirst } from "../helpers/queue-gateway.js";
import { makeAgentState, readIndex, removeFastTempDirs, sessionsDir, startOn, waitUntil } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `chat.send` with `deliver: true` into a session whose messages a `collect` turn merges: the turn
 * answers every merged message, and the chat gets its reply once, also when the gateway is killed
 * while that reply is being sent and delivers it after the restart. A message acknowledged with
 * `deliver: true` owes the chat its reply from then on: a kill before its run ended gets the chat
 * what a channel message gets.
 */
const OWNER = 5151;
const SESSION = "agent:main:main";
let model: FakeModelServer;
let telegram: FakeTelegram;
let stateDir: string;
let gw: GatewayProcess;
let rpc: Rpc;

async function startGatewayOnState(): Promise<void> {
  gw = await startOn(stateDir, "chat-deliver-merged-token");
  await gw.waitForOutput(/channel account started/, 15_000);
  rpc = new Rpc((await openOperator(gw.url, "chat-deliver-merged-token")).sock);
}

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const channels = {
    telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }),
  };
  stateDir = makeAgentState(model, { extra: { channels, messages: { queue: { mode: "collect", debounceMs: 0 } } } });
  await startGatewayOnState();
  // The session's chat: where `deliver: true` sends.
  holdAnswerTo(model, "hello").release();
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "hello", messageId: 1 });
  await telegram.waitFor(() => telegram.messages(OWNER).length === 1, 20_000);
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await model?.close();
  removeFastTempDirs();
});

/** What a chat gets for a message whose run a restart cut short (src/channels/recover-reply.ts). */
const INTERRUPTED = "The gateway restarted before this message was answered";

const send = (message: string, key: string, deliver = true) => rpc.request("chat.send", { sessionKey: SESSION, message, idempotencyKey: key, deliver });
const chatEnd = (runId: string) => rpc.sock.waitFor((f) => f.event === "chat" && f.payload?.runId === runId && f.payload.state === "final", 15_000);
/** Telegram messages to the owner that contain `text`. */
const sentWith = (text: string) => telegram.messages(OWNER).filter((m) => String(m.text).includes(text));

/**
 * `<p>-first` (not delivered, so the next message the chat gets is the merged reply) runs with its
 * answer held; `<p>-second` and `<p>-third`, both `deliver: true`, are collected behind it into one turn.
 */
const mergedBehindHeldFirst = (p: string) => sendTwoBehindHeldFirst(model, p, (message, key) => send(message, key, key !== `${p}-1`));

/** A later message's reply reached the chat: replies to one chat go out in order, so any earlier one did too. */
async function deliveredUpTo(p: string): Promise<void> {
  const res = await send(`${p}-after`, `${p}-after`);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  await telegram.waitFor(() => sentWith(`A:${p}-after`).length === 1, 20_000);
}

/** `chat.send` delivery ids in the ledger file, each with whether it settled (its reply's chunks recorded, or finished). */
function deliverEntries(): Map<string, boolean> {
  const entries = new Map<string, boolean>();
  const file = path.join(stateDir, "channels", "delivery-ledger.jsonl");
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.includes('"chat.send:')) continue;
    const op = JSON.parse(line);
    if (op.op === "expect") entries.set(op.id, entries.get(op.id) ?? false);
    if (op.op === "reply" || op.op === "finish") entries.set(op.id, true);
  }
  return entries;
}

describe("chat.send deliver: true into a merged turn", { timeout: 90_000 }, () => {
  it("the chat gets the merged turn's reply once, however many of its messages asked for delivery", async () => {
    const first = await mergedBehindHeldFirst("m");
    first.release();
    for (const runId of ["m-2", "m-3"]) await chatEnd(runId);
    await deliveredUpTo("m");
    expect(sentWith("m-third")).toHaveLength(1);
  });

  it("a gateway killed while sending that reply sends it once after the restart", async () => {
    const first = await mergedBehindHeldFirst("k");
    telegram.hangNext("sendMessage");
    first.release();
    for (const runId of ["k-2", "k-3"]) await chatEnd(runId);
    await telegram.waitFor(() => telegram.calls.some((c) => c.status === 0 && String(c.body.text).includes("k-third")), 20_000);
    await waitUntil(() => [...deliverEntries().values()].every(Boolean), 10_000, "every delivery settled");
    // The session's chat is in its index on disk (written within a second), so it survives the kill.
    await waitUntil(() => readIndex(stateDir)[SESSION]?.lastTo === String(OWNER), 10_000, "the session's chat on disk");
    rpc.sock.close();
    await gw.stop("SIGKILL");
    telegram.release();
    await startGatewayOnState();
    await deliveredUpTo("k");
    expect(sentWith("k-third")).toHaveLength(1);
  });
});

describe("chat.send deliver: true cut by a kill", { timeout: 90_000 }, () => {
  it("a message whose run was killed before it ended gets the chat the interrupted notice once after the restart, also when the session index lost its chat", async () => {
    const held = holdAnswerTo(model, "c-cut");
    expect((await send("c-cut", "c-1")).payload).toMatchObject({ status: "started" });
    await held.arrived;
    rpc.sock.close();
    await gw.stop("SIGKILL");
    held.release();
    forgetSessionChat();
    await startGatewayOnState();
    await telegram.waitFor(() => sentWith(INTERRUPTED).length === 1, 20_000);
    const refused = await send("c-no-chat", "c-2");
    expect(refused.error?.message, "the restarted gateway does not know the session's chat").toMatch(/has no chat to deliver to/);
    // The chat talks again (its route is back in the index): its answer comes after any second notice would.
    holdAnswerTo(model, "c-again").release();
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "c-again", messageId: 2 });
    await telegram.waitFor(() => sentWith("A:c-again").length === 1, 20_000);
    expect(sentWith(INTERRUPTED)).toHaveLength(1);
  });
});

/** What `sessions.json` holds when a kill came within the second before it was written: the session without its chat. */
function forgetSessionChat(): void {
  const file = path.join(sessionsDir(stateDir), "sessions.json");
  const index = readIndex(stateDir);
  for (const field of ["lastChannel", "lastTo", "lastAccountId", "lastThreadId"]) delete index[SESSION][field];
  fs.writeFileSync(file, JSON.stringify(index, null, 2));
}
