import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `responsePrefix` through a real gateway and grammY against a fake Bot API: the channel's prefix
 * (over `messages.responsePrefix`) goes before the agent's answer with its names filled in; a
 * command's answer carries none.
 */

const CHAT = 777;
const servers = useFakeServers({ telegram: true });

describe("responsePrefix over Telegram", { timeout: 60_000 }, () => {
  it("the channel's prefix, filled with the agent's name and the answering model, goes before each answer", async () => {
    const stateDir = makeTempDir("openclaw-response-prefix-");
    servers.model.setResponder(() => ({ text: "noted" }));
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)], responsePrefix: "[{identity.name} · {model} · {think}]" }) },
        messages: { responsePrefix: "auto" },
      }),
    );
    config.agents.entries = { main: { identity: { name: "Claw" } } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const replies = () => servers.telegram.messages(CHAT).map((m) => String(m.text));
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "hello", messageId: 1 });
    await servers.telegram.waitFor(() => replies().length === 1, 15_000);
    expect(replies()).toEqual(["[Claw · fake-model · off] noted"]);
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "/whoami", messageId: 2 });
    await servers.telegram.waitFor(() => replies().length === 2, 15_000);
    expect(replies()[1]).toMatch(/^Channel: telegram/);
    await gateway.stop();
  });
});
