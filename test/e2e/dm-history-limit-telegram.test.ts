import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf, messagesOf } from "../helpers/model-request.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `dmHistoryLimit` and `dms.<peer>.historyLimit` through a real gateway and grammY: in DM sessions
 * of their own (`session.dmScope: per-channel-peer`) the model sees at most that many earlier user
 * turns; the transcript keeps everything.
 */

const ANN = 4242;
const BOB = 5151;
const servers = useFakeServers({ telegram: true });

describe("DM history limits over Telegram", { timeout: 60_000 }, () => {
  it("the channel's limit and a peer's own cut the history each turn sees", async () => {
    const stateDir = makeTempDir("openclaw-dm-history-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req)}` }));
    const telegram = telegramChannelConfig(servers.telegram, { allowFrom: [String(ANN), String(BOB)], dmHistoryLimit: 1, dms: { [String(BOB)]: { historyLimit: 0 } } });
    const config = fakeModelConfig(servers.model, stateDir, { channels: { telegram }, session: { dmScope: "per-channel-peer" } });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const turn = async (chat: number, text: string) => {
      const before = servers.telegram.messages(chat).length;
      servers.telegram.pushMessage({ chatId: chat, fromId: chat, fromName: `User ${chat}`, text, messageId: messageId++ });
      await servers.telegram.waitFor(() => servers.telegram.messages(chat).length > before, 15_000);
      const request = chatRequests(servers.model.requests).find((r) => lastUserTextOf(r) === text)!;
      return messagesOf(request)
        .filter((m) => m.role === "user")
        .map((m) => String(m.content));
    };

    for (const text of ["ann one", "ann two"]) await turn(ANN, text);
    expect(await turn(ANN, "ann three")).toEqual(["ann two", "ann three"]);
    await turn(BOB, "bob one");
    expect(await turn(BOB, "bob two")).toEqual(["bob two"]);
    await gateway.stop();
  });
});
