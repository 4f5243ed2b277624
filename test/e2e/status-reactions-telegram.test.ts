import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `messages.statusReactions.enabled` through a real gateway and grammY against a fake Bot API: the
 * ack reaction on the user's message follows the run — 👀 when accepted, Telegram's stand-in for
 * thinking while the model works, its stand-in for done once the reply is out, then 👀 again —
 * each one replacing the last, as Telegram's reactions do.
 */

const CHAT = 777;
const servers = useFakeServers({ telegram: true });
const reactions = () =>
  servers.telegram.sent.filter((c) => c.method === "setMessageReaction" && String(c.body.chat_id) === String(CHAT)).map((c) => (c.body.reaction as { emoji: string }[])[0]!.emoji);

describe("status reactions on Telegram", { timeout: 60_000 }, () => {
  it("👀 → 🤔 while the model works → 👍 when the reply is out → 👀", async () => {
    const stateDir = makeTempDir("openclaw-status-reactions-");
    const config = fakeModelConfig(servers.model, stateDir, {
      channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }) },
      messages: { ackReaction: "👀", ackReactionScope: "all", statusReactions: { enabled: true } },
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const held = holdAnswerTo(servers.model, "hello");
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "hello", messageId: 41 });
    await held.arrived;
    await expect.poll(reactions, { timeout: 10_000 }).toEqual(["👀", "🤔"]);
    held.release();
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length === 1, 15_000);
    await expect.poll(reactions, { timeout: 10_000 }).toEqual(["👀", "🤔", "👍", "👀"]);
    expect(servers.telegram.sent.filter((c) => c.method === "setMessageReaction").every((c) => c.body.message_id === 41)).toBe(true);
    await gateway.stop();
  });
});
