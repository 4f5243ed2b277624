import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `channels.modelByChannel` through a real gateway and grammY: a DM pinned to a model (by an
 * alias) is answered by it while another DM keeps the agent's model, and the session's own
 * `/model` choice wins over the pin.
 */

const PINNED = 4242;
const OTHER = 5151;
const servers = useFakeServers({ telegram: true });

describe("channels.modelByChannel over Telegram", { timeout: 60_000 }, () => {
  it("the pinned DM uses its model, another DM the agent's, and /model wins over the pin", async () => {
    const stateDir = makeTempDir("openclaw-model-by-channel-");
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: {
          telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(PINNED), String(OTHER)] }),
          modelByChannel: { telegram: { [String(PINNED)]: "quick" } },
        },
      }),
    );
    config.models.providers.fake.models.push({ id: "quick-model", contextWindow: 120000, maxTokens: 4096 });
    config.agents.defaults.models = { "fake/quick-model": { alias: "quick" } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const modelsAsked = () => servers.model.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => (r.body as { model: string }).model);
    let messageId = 1;
    const dm = async (chat: number, text: string) => {
      const before = servers.telegram.messages(chat).length;
      servers.telegram.pushMessage({ chatId: chat, fromId: chat, fromName: "User", text, messageId: messageId++ });
      await servers.telegram.waitFor(() => servers.telegram.messages(chat).length > before, 15_000);
    };

    servers.model.enqueue({ text: "pinned answer" }, { text: "default answer" });
    await dm(PINNED, "hello");
    await dm(OTHER, "hello");
    expect(modelsAsked()).toEqual(["quick-model", "fake-model"]);

    await dm(PINNED, "/model fake/fake-model");
    servers.model.enqueue({ text: "own choice" });
    await dm(PINNED, "again");
    expect(modelsAsked().at(-1)).toBe("fake-model");
    await gateway.stop();
  });
});
