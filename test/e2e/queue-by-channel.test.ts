import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { chatHistory } from "../helpers/chat-session.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `messages.queue.byChannel` through a real gateway and grammY against a fake Bot API: Telegram
 * messages that arrive while a turn runs are collected into one turn (`byChannel.telegram:
 * collect`, quiet window from `debounceMsByChannel`), where the global `followup` would give each
 * its own turn.
 */

const CHAT = 777;
const servers = useFakeServers({ telegram: true });

describe("messages.queue.byChannel", { timeout: 60_000 }, () => {
  it("a channel's own mode governs its messages: two Telegram messages sent during a turn are answered by one collected turn", async () => {
    const stateDir = makeTempDir("openclaw-queue-by-channel-");
    const queue = { mode: "followup", byChannel: { telegram: "collect" }, debounceMsByChannel: { telegram: 1_500 } };
    const config = fakeModelConfig(servers.model, stateDir, {
      channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }) },
      messages: { queue },
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const first = holdAnswerTo(servers.model, "first");
    let messageId = 1;
    const push = (text: string) => servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text, messageId: messageId++ });
    push("first");
    await first.arrived;
    push("second");
    push("third");
    // Both are in the session (written before they are taken) while the first turn still holds.
    const { sock } = await openOperator(gateway.url, gateway.token);
    await expect.poll(async () => JSON.stringify(await chatHistory(sock, "main")), { timeout: 15_000 }).toMatch(/second[\s\S]*third/);
    sock.close();
    first.release();
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length >= 2, 20_000);
    const requests = chatRequests(servers.model);
    expect(requests.map((r) => lastUserText(r))).toEqual(["first", expect.stringContaining("second")]);
    expect(lastUserText(requests[1]!)).toContain("third");
  });
});
