import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastMessageOf, toolNamesOf } from "../helpers/model-request.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * heartbeat_respond through a real gateway and grammY: a beat's turn is offered the tool, and its
 * report decides what the heartbeat's Telegram target gets, whatever the turn's text says.
 */

const CHAT = 778;
const servers = useFakeServers({ telegram: true });

describe("heartbeat_respond", { timeout: 60_000 }, () => {
  it("notify=false sends nothing; notify=true sends the notification text, not the reply's prose", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-respond-");
    servers.model.setResponder((req) => {
      if (lastMessageOf(req).role === "tool") return { text: "I looked at everything in detail and wrote this long report." };
      const alert = lastUserText(req).includes("the disk is full");
      return {
        toolCalls: [
          {
            name: "heartbeat_respond",
            arguments: alert
              ? { outcome: "needs_attention", notify: true, summary: "The disk is 95% full.", notificationText: "Disk 95% full", priority: "high" }
              : { outcome: "no_change", notify: false, summary: "Nothing new." },
          },
        ],
      };
    });
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }) } }));
    config.agents.defaults = { ...config.agents.defaults, heartbeat: { every: "30m", target: "telegram", to: String(CHAT) } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    const lastBeat = async () => JSON.parse((await runCli(["gateway", "call", "last-heartbeat"], env)).output);
    const wake = async (text: string) => expect((await runCli(["gateway", "call", "wake", "--params", JSON.stringify({ mode: "now", text })], env)).code).toBe(0);

    await wake("all quiet");
    await expect.poll(async () => (await lastBeat())?.status, { timeout: 30_000, interval: 200 }).toBe("ok-token");
    expect(await lastBeat()).toMatchObject({ preview: "Nothing new." });
    expect(servers.telegram.messages(CHAT)).toEqual([]);
    const beatRequest = chatRequests(servers.model.requests).find((r) => lastUserText(r).includes("all quiet"))!;
    expect(toolNamesOf(beatRequest)).toContain("heartbeat_respond");

    await wake("the disk is full");
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length === 1, 30_000);
    expect(String(servers.telegram.messages(CHAT)[0]!.text)).toBe("Disk 95% full");
    expect(await lastBeat()).toMatchObject({ status: "sent", preview: "Disk 95% full", channel: "telegram" });
  });

  it("a turn that is not a heartbeat is not offered the tool", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-respond-chat-");
    servers.model.setResponder(() => ({ text: "hello" }));
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    const before = chatRequests(servers.model.requests).length;
    expect((await runCli(["agent", "--message", "hi there", "--session-key", "plain"], env)).code).toBe(0);
    const requests = chatRequests(servers.model.requests).slice(before);
    expect(requests.length).toBeGreaterThan(0);
    expect(toolNamesOf(requests[0]!)).not.toContain("heartbeat_respond");
  });
});
