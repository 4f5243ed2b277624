import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { makeAgentState, readIndex, removeFastTempDirs, startOn } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A session's chat route (`lastChannel`/`lastTo`) is where its replies, `chat.send` deliveries,
 * cron announcements and heartbeats go. The first message from a chat sets it, and the message
 * is acknowledged only once the index holding it is on disk: a gateway killed right after (its
 * turn still waiting for the model) keeps the route, where the coalesced index write a second
 * later would have lost it.
 */
const OWNER = 6262;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess | undefined;

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await model?.close();
  removeFastTempDirs();
});

describe("a session's chat route", () => {
  it("is on disk before the chat's first message runs: a SIGKILL during that turn keeps it", async () => {
    const channels = {
      telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }),
    };
    const stateDir = makeAgentState(model, { extra: { channels } });
    gw = await startOn(stateDir, "route-durable-token");
    await gw.waitForOutput(/channel account started/, 15_000);
    const held = holdAnswerTo(model, "where do replies go");
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "where do replies go", messageId: 1 });
    await held.arrived;
    await gw.stop("SIGKILL");
    gw = undefined;
    const routed = Object.values(readIndex(stateDir)).filter((entry) => entry.lastChannel === "telegram");
    expect(routed).toHaveLength(1);
    expect(routed[0]).toMatchObject({ lastTo: String(OWNER), lastAccountId: "default" });
  });
});
