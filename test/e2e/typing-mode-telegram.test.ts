import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `typingMode` through a real gateway and grammY against a fake Bot API, with the model's answer
 * held: `instant` (a DM's default) shows "typing…" while the model works, `message` only once text
 * comes, `never` not at all.
 */

const CHAT = 777;
const servers = useFakeServers({ telegram: true });
const typingCalls = () => servers.telegram.sent.filter((c) => c.method === "sendChatAction" && String(c.body.chat_id) === String(CHAT)).length;

async function dmWithHeldAnswer(typing: Record<string, unknown>, expectTypingWhileHeld = false): Promise<{ whileHeld: number; after: number }> {
  const stateDir = makeTempDir("openclaw-typing-mode-");
  const config = JSON.parse(
    fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)], typingIntervalSeconds: 6 }) } }),
  );
  config.agents.defaults = { ...config.agents.defaults, ...typing };
  const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
  await gateway.waitForOutput(/channel account started/, 10_000);
  const before = typingCalls();
  const replies = servers.telegram.messages(CHAT).length;
  const held = holdAnswerTo(servers.model, "hello");
  servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "hello" });
  await held.arrived;
  // Typing for instant starts when the message is acknowledged, before the model has the call;
  // the others would have started by now too if they did not wait for output.
  if (expectTypingWhileHeld) await expect.poll(() => typingCalls() - before, { timeout: 10_000 }).toBeGreaterThan(0);
  else await new Promise((resolve) => setTimeout(resolve, 300));
  const whileHeld = typingCalls() - before;
  held.release();
  await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length > replies, 15_000);
  // The indicator's request is sent as the text comes, not awaited before the reply: give it time to land.
  if (!expectTypingWhileHeld && typing.typingMode !== "never") await expect.poll(() => typingCalls() - before, { timeout: 10_000 }).toBeGreaterThan(0);
  const after = typingCalls() - before;
  await gateway.stop();
  return { whileHeld, after };
}

describe("typingMode", { timeout: 60_000 }, () => {
  it("instant by default in a DM: typing while the model works", async () => {
    expect((await dmWithHeldAnswer({}, true)).whileHeld).toBeGreaterThan(0);
  });

  it("message: no typing until the reply's text comes", async () => {
    const { whileHeld, after } = await dmWithHeldAnswer({ typingMode: "message" });
    expect(whileHeld).toBe(0);
    expect(after).toBeGreaterThan(0);
  });

  it("never: no typing at all", async () => {
    expect(await dmWithHeldAnswer({ typingMode: "never" })).toEqual({ whileHeld: 0, after: 0 });
  });
});
