import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `/reasoning stream` on a Telegram account that streams its drafts: while the model thinks,
 * the draft shows its reasoning under "Thinking:"; the answer then replaces it, so the chat ends
 * with the answer alone. Without it, the draft never shows reasoning.
 */

const OWNER = 5151;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let messageId = 1;

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  const stateDir = makeTempDir();
  const channels = { telegram: { ...telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }), streaming: { mode: "partial", throttleMs: 250 } } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels }) } });
  await gw.waitForOutput(/channel account started/, 10_000);
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await model?.close();
});

/** Every text the bot posted or edited into the DM, in order. */
const drafts = () =>
  telegram.sent
    .filter((call) => (call.method === "sendMessage" || call.method === "editMessageText") && String(call.body.chat_id) === String(OWNER))
    .map((call) => String(call.body.text));

async function setReasoning(level: string): Promise<void> {
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: `/reasoning ${level}`, messageId: messageId++ });
  await telegram.waitFor(() => (telegram.shown(OWNER).at(-1) ?? "").includes(`Reasoning for this session: ${level}`), 10_000);
}

async function ask(text: string, answer: string): Promise<void> {
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.shown(OWNER).at(-1) === answer, 20_000);
}

describe("/reasoning stream in a streamed Telegram draft", () => {
  it("the draft shows the reasoning while the model thinks; the answer replaces it", async () => {
    await setReasoning("stream");
    const before = drafts().length;
    model.setResponder(() => ({ thinking: "First weigh the options. Then pick the cheaper one.", text: "Take the train.", chunkDelayMs: 250 }));
    await ask("train or plane?", "Take the train.");
    const shownWhileThinking = drafts().slice(before);
    expect(shownWhileThinking.some((text) => text.startsWith("Thinking:\nFirst weigh the options."))).toBe(true);
    // The answer alone stays: the reasoning draft became the reply.
    expect(telegram.shown(OWNER).at(-1)).toBe("Take the train.");
    expect(telegram.shown(OWNER).some((text) => text.startsWith("Thinking:"))).toBe(false);
  }, 60_000);

  it("with reasoning off the draft never shows it", async () => {
    await setReasoning("off");
    const before = drafts().length;
    model.setResponder(() => ({ thinking: "Secret deliberation.", text: "Bus.", chunkDelayMs: 250 }));
    await ask("bus or taxi?", "Bus.");
    expect(
      drafts()
        .slice(before)
        .some((text) => text.includes("Secret deliberation")),
    ).toBe(false);
  }, 60_000);
});
