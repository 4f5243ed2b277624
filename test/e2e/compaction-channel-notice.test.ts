import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest, startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `compaction.notifyUser` in a chat channel: after an automatic compaction the Telegram chat the
 * session talks in gets the one-line notice, once, between the replies.
 */
const CHAT = 7373;
const LONG_REPLY = "Long answer. ".repeat(920);
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  const stateDir = makeTempDir();
  const config = JSON.parse(
    fakeModelConfig(model, stateDir, {
      channels: {
        telegram: telegramChannelConfig(telegram, { allowFrom: [String(CHAT)] }),
      },
    }),
  );
  config.models.providers.fake.models = [{ id: "fake-model", contextWindow: 20_000, maxTokens: 1024 }];
  config.agents.defaults.skipBootstrap = true;
  config.agents.defaults.compaction = { notifyUser: true };
  model.setResponder((request) => (isSummaryRequest(request) ? fakeSummaryReply(request) : { text: LONG_REPLY }));
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  await gw.waitForOutput(/channel account started/, 10_000);
});
afterAll(async () => {
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

describe("compaction.notifyUser in a Telegram chat", () => {
  it("tells the chat once that older messages were summarized", async () => {
    const texts = () => telegram.messages(CHAT).map((m) => String(m.text));
    const notices = () => texts().filter((t) => t.startsWith("🧹 The conversation was getting long"));
    const summaries = () => model.requests.filter(isSummaryRequest).length;
    for (let i = 1; i <= 8 && summaries() === 0; i += 1) {
      const repliesBefore = texts().filter((t) => t.startsWith("Long answer.")).length;
      telegram.pushMessage({ chatId: CHAT, fromId: CHAT, text: `question ${i}`, messageId: i });
      await telegram.waitFor(() => texts().filter((t) => t.startsWith("Long answer.")).length > repliesBefore, 30_000);
    }
    await telegram.waitFor(() => notices().length > 0, 30_000);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]).toMatch(/older messages were summarized \(context ≈\d+ → ≈\d+ tokens\)\.$/);
  }, 120_000);
});
