import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { makeAgentState, removeFastTempDirs, startOn } from "../helpers/reliability.js";

/**
 * A channel message whose turn is running when the gateway stops gracefully (SIGTERM): the chat
 * is told once that its message was not answered and should be sent again, as after a crash. A
 * user's /stop stays silent; the gateway's stop is not the user's.
 */
const OWNER = 6161;
let model: FakeModelServer;
let telegram: FakeTelegram;
let stateDir: string;
let gw: GatewayProcess;

const TOKEN = "channel-reply-shutdown-token";
/** The notice a chat gets for a message whose turn a restart cut (src/channels/dispatch/run-reply.ts). */
const NOTICE = "The gateway restarted before this message was answered";
const sentWith = (text: string) => telegram.messages(OWNER).filter((m) => String(m.text).includes(text));

async function startGateway(): Promise<void> {
  gw = await startOn(stateDir, TOKEN);
  await gw.waitForOutput(/channel account started/, 15_000);
}

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const channels = {
    telegram: { botToken: telegram.token, apiRoot: telegram.url, pollingTimeoutSeconds: 1, pollingRetryBaseMs: 50, allowFrom: [String(OWNER)], typingIntervalSeconds: 0 },
  };
  stateDir = makeAgentState(model, { extra: { channels } });
  await startGateway();
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await model?.close();
  removeFastTempDirs();
});

describe("a channel message whose turn the gateway's stop cuts", { timeout: 90_000 }, () => {
  it("gets the chat one notice to send it again", async () => {
    const held = holdAnswerTo(model, "cut-short");
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "cut-short", messageId: 1 });
    await held.arrived;
    await gw.stop("SIGTERM");
    held.release();
    await startGateway();
    await telegram.waitFor(() => sentWith(NOTICE).length === 1, 20_000);
    // A later message's answer comes after any second notice would: replies to one chat go out in order.
    holdAnswerTo(model, "again").release();
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "again", messageId: 2 });
    await telegram.waitFor(() => sentWith("A:again").length === 1, 20_000);
    expect(sentWith(NOTICE)).toHaveLength(1);
    expect(sentWith("A:cut-short")).toEqual([]);
  });
});
