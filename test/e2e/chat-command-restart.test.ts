import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `/restart` from a chat: the owner is told first, then the gateway restarts in the same process
 * (clients get `shutdown` with `restartExpectedMs`) and answers again; others are refused, and
 * `commands.restart: false` turns it off.
 */

const OWNER = 901;
const GUEST = 902;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let messageId = 1;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const stateDir = makeTempDir();
  const telegramConfig = telegramChannelConfig(telegram, { allowFrom: [String(OWNER), String(GUEST)] });
  const content = fakeModelConfig(model, stateDir, { channels: { telegram: telegramConfig }, commands: { config: true, ownerAllowFrom: [`telegram:${OWNER}`] } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  await gw.waitForOutput(/channel account started/, 30_000);
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await model?.close();
});

async function says(fromId: number, text: string): Promise<string> {
  const before = telegram.messages(fromId).length;
  telegram.pushMessage({ chatId: fromId, fromId, fromName: "Someone", text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.messages(fromId).length > before, 30_000);
  return String(telegram.messages(fromId)[before]!.text);
}

const listening = () => (gw.output().match(/"msg":"gateway listening"/g) ?? []).length;

describe("/restart", () => {
  it("is refused to a guest and to an operator client without operator.admin", async () => {
    expect(await says(GUEST, "/restart")).toBe("/restart is for the bot owner only (commands.ownerAllowFrom).");
    const writer = (await openOperator(gw.url, gw.token, { scopes: ["operator.read", "operator.write"] })).sock;
    try {
      const res = await writer.request("chat.send", { sessionKey: "main", message: "/restart", idempotencyKey: randomUUID() });
      expect(res.payload.reply).toBe("Changing the gateway from a chat command needs the operator.admin scope on this connection.");
    } finally {
      writer.close();
    }
    expect(listening()).toBe(1);
  });

  it("tells the owner first, restarts the gateway in the same process, and the bot answers again", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const shutdown = sock.waitFor((f) => f.type === "event" && f.event === "shutdown", 30_000);
    expect(await says(OWNER, "/restart")).toBe("Restarting the gateway now; it is back in a few seconds.");
    expect((await shutdown).payload).toMatchObject({ restartExpectedMs: expect.any(Number) });
    await waitUntil(() => listening() === 2, 30_000, "the restarted gateway");
    await waitUntil(() => (gw.output().match(/channel account started/g) ?? []).length === 2, 30_000, "the Telegram account again");
    expect(await says(OWNER, "still there?")).toBe("model: still there?");
    const again = await openOperator(gw.url, gw.token);
    again.sock.close();
  });

  it("is off with commands.restart: false", async () => {
    expect(await says(OWNER, "/config set commands.restart=false")).toBe("Set commands.restart = false. Applied.");
    expect(await says(OWNER, "/restart")).toBe("/restart is off on this gateway (commands.restart: false).");
    expect(listening()).toBe(2);
  });
});
