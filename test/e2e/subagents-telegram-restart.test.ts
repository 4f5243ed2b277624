import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { isSubagentRequest, lastMessageOf } from "../helpers/model-request.js";
import { chatRequests, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A sub-agent spawned from a Telegram chat whose gateway is killed while the child runs: the next
 * start announces the interrupted child to its parent session, and the parent's answer reaches
 * the chat — the channels start after the announcement is delivered, and the answer waits for them.
 */

const OWNER = 111;
const servers = useFakeServers({ telegram: true });

async function start(stateDir: string): Promise<GatewayProcess> {
  const channels = {
    telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)] }),
  };
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels }) } });
  return servers.keep(gw);
}

const repliesTo = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

describe("a sub-agent spawned from Telegram across a SIGKILL", { timeout: 90_000 }, () => {
  it("the parent's answer to the interrupted child's announcement is sent to the chat after the restart", async () => {
    servers.model.setResponder((req) => {
      if (isSubagentRequest(req)) return { text: "never finishes", delayMs: 120_000 };
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text.includes("find the answer")) return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "Find the answer." } }] };
      if (last.role === "tool") return { text: "I asked a helper." };
      if (last.text.includes("interrupted by a gateway restart")) return { text: "My helper was cut off by a restart." };
      return { text: "?" };
    });
    const stateDir = makeTempDir("openclaw-subagent-tg-kill-");
    let gw = await start(stateDir);
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "please find the answer", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).includes("I asked a helper."), 15_000);
    await waitUntil(() => chatRequests(servers.model).some(isSubagentRequest), 15_000, "the child's model call");
    // The kill lands once the first reply is marked sent (a kill between Telegram's answer and that mark resends it, by design).
    const deliveries = path.join(stateDir, "channels", "delivery-ledger.jsonl");
    await waitUntil(() => fs.existsSync(deliveries) && fs.readFileSync(deliveries, "utf8").includes('"state":"delivered"'), 15_000, "the first reply marked sent");
    await servers.kill(gw);
    gw = await start(stateDir);
    await waitUntil(
      () => chatRequests(servers.model).some((r) => lastMessageOf(r).text.includes("interrupted by a gateway restart")),
      20_000,
      "the parent's turn on the announcement",
    );
    await servers.telegram.waitFor(() => repliesTo(OWNER).includes("My helper was cut off by a restart."), 20_000);
    expect(repliesTo(OWNER)).toEqual(["I asked a helper.", "My helper was cut off by a restart."]);
  });
});
