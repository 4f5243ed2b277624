import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A heartbeat with `target: "owner"` sends its alert to the owner's Telegram DM, the user
 * `commands.ownerAllowFrom` names, not to the chat the DM allowlist lists first. Real gateway
 * process, the real grammY client against a fake Bot API.
 */

const OWNER = 777;
const OTHER = 501;
const servers = useFakeServers({ telegram: true });

describe("heartbeat target owner", { timeout: 60_000 }, () => {
  it("a wake now's alert reaches the owner's DM; last-heartbeat names that chat", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-owner-");
    servers.model.setResponder((req) => (lastUserText(req).includes("the disk is full") ? { text: "The disk is 95% full." } : { text: "HEARTBEAT_OK" }));
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OTHER), String(OWNER)] }) },
        commands: { ownerAllowFrom: [`telegram:${OWNER}`] },
      }),
    );
    config.agents.defaults = { ...config.agents.defaults, heartbeat: { every: "30m", target: "owner" } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };

    const woke = await runCli(["gateway", "call", "wake", "--params", JSON.stringify({ mode: "now", text: "the disk is full" })], env);
    expect(woke.code, woke.output).toBe(0);
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length === 1, 30_000);
    expect(String(servers.telegram.messages(OWNER)[0]!.text)).toBe("The disk is 95% full.");
    expect(servers.telegram.messages(OTHER)).toEqual([]);
    const last = JSON.parse((await runCli(["gateway", "call", "last-heartbeat"], env)).output);
    expect(last).toMatchObject({ agentId: "main", status: "sent", channel: "telegram", to: String(OWNER) });
  });
});
