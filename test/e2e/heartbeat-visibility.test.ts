import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `heartbeatVisibility` through a real gateway and grammY: `channels.defaults` turns alerts off
 * everywhere, the Telegram account turns acknowledgements on, so a quiet beat's HEARTBEAT_OK
 * reaches the chat while an alert stays in the session.
 */

const CHAT = 777;
const servers = useFakeServers({ telegram: true });

describe("heartbeatVisibility", { timeout: 60_000 }, () => {
  it("the account's showOk and the defaults' showAlerts: false decide what a beat sends", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-visibility-");
    servers.model.setResponder((req) => (lastUserText(req).includes("the disk is full") ? { text: "The disk is 95% full." } : { text: "HEARTBEAT_OK" }));
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: {
          defaults: { heartbeatVisibility: { showAlerts: false } },
          telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)], accounts: { default: { heartbeatVisibility: { showOk: true } } } }),
        },
      }),
    );
    config.agents.defaults = { ...config.agents.defaults, heartbeat: { every: "30m", target: "telegram", to: String(CHAT) } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    const lastBeat = async () => JSON.parse((await runCli(["gateway", "call", "last-heartbeat"], env)).output);

    expect((await runCli(["gateway", "call", "wake", "--params", JSON.stringify({ mode: "now", text: "all quiet" })], env)).code).toBe(0);
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length === 1, 30_000);
    expect(String(servers.telegram.messages(CHAT)[0]!.text)).toBe("HEARTBEAT_OK");

    expect((await runCli(["gateway", "call", "wake", "--params", JSON.stringify({ mode: "now", text: "the disk is full" })], env)).code).toBe(0);
    await expect.poll(async () => (await lastBeat()).status, { timeout: 30_000, interval: 200 }).toBe("skipped");
    expect(await lastBeat()).toMatchObject({ reason: "heartbeatVisibility.showAlerts is off for telegram: the reply stays in the session", preview: "The disk is 95% full." });
    expect(servers.telegram.messages(CHAT)).toHaveLength(1);
  });
});
