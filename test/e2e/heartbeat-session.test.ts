import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * `heartbeat.session` and `heartbeat.directPolicy` through a real gateway and grammY against a
 * fake Bot API: beats run in the Telegram group's session and `target: "last"` is that group;
 * with `directPolicy: "block"` a beat whose last chat is a DM keeps its alert in the session.
 */

const OWNER = 777;
const GROUP = -100300;
const servers = useFakeServers({ telegram: true });

describe("heartbeat session and directPolicy", { timeout: 60_000 }, () => {
  it("beats run in the group's session and alert the group; a DM target under directPolicy block gets nothing", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-session-");
    servers.model.setResponder((req) => (lastUserText(req).includes("the disk is full") ? { text: "The disk is 95% full." } : { text: "noted" }));
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: {
          telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], groupAllowFrom: [String(OWNER)], requireMention: false, groups: { [GROUP]: {} } }),
        },
      }),
    );
    const groupKey = `agent:main:telegram:group:${GROUP}`;
    config.agents.defaults = { ...config.agents.defaults, heartbeat: { every: "30m", target: "last", session: groupKey, directPolicy: "block" } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    // The group and the owner's DM each talk once, so both sessions have a last chat.
    servers.telegram.pushMessage({ chatId: GROUP, fromId: OWNER, fromName: "Owner", text: "hello group", messageId: 1 });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "hello me", messageId: 2 });
    await servers.telegram.waitFor(() => servers.telegram.messages(GROUP).length === 1 && servers.telegram.messages(OWNER).length === 1, 15_000);

    const wake = async () => {
      const woke = await runCli(["gateway", "call", "wake", "--params", JSON.stringify({ mode: "now", text: "the disk is full" })], env);
      expect(woke.code, woke.output).toBe(0);
    };
    await wake();
    await servers.telegram.waitFor(() => servers.telegram.messages(GROUP).length === 2, 30_000);
    expect(String(servers.telegram.messages(GROUP)[1]!.text)).toBe("The disk is 95% full.");
    const beatInGroup = servers.model.requests.filter((r) => JSON.stringify(r.body).includes("the disk is full"));
    expect(beatInGroup).toHaveLength(1);
    // The beat's turn saw the group's conversation: it ran in that session.
    expect(JSON.stringify(beatInGroup[0]!.body)).toContain("hello group");

    // The same beat in the owner's DM session: its last chat is a DM, which directPolicy block refuses.
    const set = await runCli(["config", "set", "agents.defaults.heartbeat.session", "agent:main:main"], env);
    expect(set.code, set.output).toBe(0);
    // Woken until the reloaded config applies (a beat before it alerts the group again).
    await expect
      .poll(
        async () => {
          await wake();
          return JSON.parse((await runCli(["gateway", "call", "last-heartbeat"], env)).output);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toMatchObject({ status: "skipped", reason: expect.stringMatching(/is a DM and heartbeat\.directPolicy is block/) });
    expect(servers.telegram.messages(OWNER)).toHaveLength(1);
  });
});
