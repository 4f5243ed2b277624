import { afterAll, describe, expect, it } from "vitest";
import { holdAnswerTo } from "../helpers/queue-gateway.js";
import { makeAgentState, readIndex, removeFastTempDirs, startOn } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A session's chat route (`lastChannel`/`lastTo`) is where its replies, `chat.send` deliveries,
 * cron announcements and heartbeats go. The first message from a chat sets it, and the message
 * is acknowledged only once the index holding it is on disk: a gateway killed right after (its
 * turn still waiting for the model) keeps the route, where the coalesced index write a second
 * later would have lost it.
 */
const OWNER = 6262;
const servers = useFakeServers({ telegram: { botUsername: "claw_bot" } });
afterAll(removeFastTempDirs);

describe("a session's chat route", () => {
  it("is on disk before the chat's first message runs: a SIGKILL during that turn keeps it", async () => {
    const channels = {
      telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)] }),
    };
    const stateDir = makeAgentState(servers.model, { extra: { channels } });
    const gw = servers.keep(await startOn(stateDir, "route-durable-token"));
    await gw.waitForOutput(/channel account started/, 15_000);
    const held = holdAnswerTo(servers.model, "where do replies go");
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "where do replies go", messageId: 1 });
    await held.arrived;
    await servers.kill(gw);
    const routed = Object.values(readIndex(stateDir)).filter((entry) => entry.lastChannel === "telegram");
    expect(routed).toHaveLength(1);
    expect(routed[0]).toMatchObject({ lastTo: String(OWNER), lastAccountId: "default" });
  });
});
