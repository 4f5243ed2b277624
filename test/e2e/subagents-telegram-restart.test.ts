import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { isSubagentRequest, lastMessageOf } from "../helpers/model-request.js";
import { chatRequests, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A sub-agent spawned from a Telegram chat whose gateway is killed while the child runs: the next
 * start announces the interrupted child to its parent session, and the parent's answer reaches
 * the chat — the channels start after the announcement is delivered, and the answer waits for them.
 */

const OWNER = 111;
let model: FakeModelServer;
let telegram: FakeTelegram;
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
});
afterAll(async () => {
  await telegram.close();
  await model.close();
});
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.stop("SIGKILL");
});

async function start(stateDir: string): Promise<GatewayProcess> {
  const channels = {
    telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }),
  };
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels }) } });
  gateways.push(gw);
  return gw;
}

const repliesTo = (chatId: number) => telegram.messages(chatId).map((m) => String(m.text));

describe("a sub-agent spawned from Telegram across a SIGKILL", { timeout: 90_000 }, () => {
  it("the parent's answer to the interrupted child's announcement is sent to the chat after the restart", async () => {
    model.setResponder((req) => {
      if (isSubagentRequest(req)) return { text: "never finishes", delayMs: 120_000 };
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text.includes("find the answer")) return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "Find the answer." } }] };
      if (last.role === "tool") return { text: "I asked a helper." };
      if (last.text.includes("interrupted by a gateway restart")) return { text: "My helper was cut off by a restart." };
      return { text: "?" };
    });
    const stateDir = makeTempDir("openclaw-subagent-tg-kill-");
    let gw = await start(stateDir);
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "please find the answer", messageId: 1 });
    await telegram.waitFor(() => repliesTo(OWNER).includes("I asked a helper."), 15_000);
    await waitUntil(() => chatRequests(model).some(isSubagentRequest), 15_000, "the child's model call");
    // The kill lands once the first reply is marked sent (a kill between Telegram's answer and that mark resends it, by design).
    const deliveries = path.join(stateDir, "channels", "delivery-ledger.jsonl");
    await waitUntil(() => fs.existsSync(deliveries) && fs.readFileSync(deliveries, "utf8").includes('"state":"delivered"'), 15_000, "the first reply marked sent");
    await gw.stop("SIGKILL");
    gateways.splice(0);
    gw = await start(stateDir);
    await waitUntil(() => chatRequests(model).some((r) => lastMessageOf(r).text.includes("interrupted by a gateway restart")), 20_000, "the parent's turn on the announcement");
    await telegram.waitFor(() => repliesTo(OWNER).includes("My helper was cut off by a restart."), 20_000);
    expect(repliesTo(OWNER)).toEqual(["I asked a helper.", "My helper was cut off by a restart."]);
  });
});
