import { describe, expect, it } from "vitest";
import { askingModel } from "../helpers/ask-user-model.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText } from "../helpers/reliability.js";

/**
 * A Telegram message that answered an ask_user question stays answered across kill -9: Telegram
 * re-sending it to the restarted gateway (which has no question waiting any more) is a repeat,
 * not a message for the agent. Real gateway, Telegram's webhook as the fake Bot API's updates,
 * the fake model.
 */

const OWNER = 4712;
const SECRET = "ask-user-redelivery";
const servers = useFakeServers({ telegram: true });

async function start(stateDir: string): Promise<GatewayProcess> {
  const telegram = {
    botToken: servers.telegram.token,
    apiRoot: servers.telegram.url,
    webhookUrl: "https://bot.example.com/telegram-webhook",
    webhookSecret: SECRET,
    allowFrom: [String(OWNER)],
    typingIntervalSeconds: 0,
  };
  const gw = await startGateway({
    stateDir,
    configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram }, messages: { inbound: { debounceMs: 0 } } }) },
  });
  servers.keep(gw);
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

/** The owner's DM as Telegram POSTs it; resolves with the HTTP status (only a 200 makes Telegram forget it). */
async function post(gw: GatewayProcess, updateId: number, messageId: number, text: string): Promise<number> {
  const message = {
    message_id: messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: OWNER, type: "private", first_name: "Owner" },
    from: { id: OWNER, is_bot: false, first_name: "Owner" },
    text,
  };
  const res = await fetch(`${gw.httpUrl}/telegram-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
    body: JSON.stringify({ update_id: updateId, message }),
  });
  await res.text();
  return res.status;
}

const shown = () => servers.telegram.shown(OWNER);

describe("an ask_user answer from a chat, across kill -9", { timeout: 90_000 }, () => {
  it("is not handed to the agent when Telegram re-sends it to the restarted gateway", async () => {
    servers.model.setResponder(askingModel);
    const stateDir = makeTempDir();
    const first = await start(stateDir);
    expect(await post(first, 701, 1, "pick a target")).toBe(200);
    await servers.telegram.waitFor(() => shown().some((text) => text.startsWith("❓ Question for you:")), 15_000);
    expect(await post(first, 702, 2, "2")).toBe(200);
    await servers.telegram.waitFor(() => shown().includes("Result: Target: Production"), 15_000);

    // The gateway dies; Telegram, as if it never saw the 200, hands the answer out again.
    await first.stop("SIGKILL");
    const second = await start(stateDir);
    expect(await post(second, 702, 2, "2")).toBe(200);
    // A fresh message after it, answered last: had the re-sent answer gone to the agent, it would have been accepted first.
    expect(await post(second, 703, 3, "hello")).toBe(200);
    await servers.telegram.waitFor(() => shown().filter((text) => text === "ok").length === 1, 15_000);
    expect(chatRequests(servers.model).map(lastUserText)).toEqual(["pick a target", "pick a target", "hello"]);
  });
});
