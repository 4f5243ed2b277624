import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * `agent` with a Telegram group as `to` (`openclaw agent --to -100…`) looks the chat up with
 * `getChat`: once per chat while the account runs, again after the account restarted.
 */

const OWNER = 4343;
const GROUP = -100666;
const CHANNEL_NAME = "newsroom";
const CHANNEL_ID = -100777;
const servers = useFakeServers({ telegram: true });

function configFor(stateDir: string, telegramExtra: Record<string, unknown> = {}): string {
  return fakeModelConfig(servers.model, stateDir, {
    session: { dmScope: "per-channel-peer" },
    channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], ...telegramExtra }) },
  });
}

async function turn(sock: TestSocket, to: string): Promise<void> {
  const ack = await sock.request("agent", { message: `to ${to}`, to, channel: "telegram", idempotencyKey: randomUUID() }, 20_000);
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  await sock.waitFor((f: Frame) => f.type === "res" && f.id === ack.id && f.payload?.status !== "accepted", 20_000);
}

const getChatCalls = (chatId: string) => servers.telegram.calls.filter((c) => c.method === "getChat" && String(c.body.chat_id) === chatId).length;

describe("Telegram getChat for agent --to", () => {
  it("is asked once per chat while the account runs, and again after a reload restarted the account", { timeout: 60_000 }, async () => {
    servers.model.setResponder(() => ({ text: "ok" }));
    const stateDir = makeTempDir();
    const gw: GatewayProcess = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir) } }));
    await gw.waitForOutput(/channel account started/, 10_000);
    // The fake Bot API's getChat knows a chat once a message was posted in it.
    servers.telegram.pushMessage({ chatId: GROUP, fromId: OWNER, text: "group hello" });
    servers.telegram.pushMessage({ chatId: CHANNEL_ID, chatType: "channel", chatUsername: CHANNEL_NAME, fromId: OWNER, text: "channel hello" });
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      await turn(sock, String(GROUP));
      await turn(sock, String(GROUP));
      await turn(sock, `@${CHANNEL_NAME}`);
      await turn(sock, `@${CHANNEL_NAME}`);
      expect(getChatCalls(String(GROUP))).toBe(1);
      expect(getChatCalls(`@${CHANNEL_NAME}`)).toBe(1);
      const sessions = (await sock.request("sessions.list", {})).payload.sessions.map((s: Frame) => s.key);
      expect(sessions).toEqual(expect.arrayContaining([`agent:main:telegram:group:${GROUP}`, `agent:main:telegram:channel:${CHANNEL_ID}`]));

      fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor(stateDir, { linkPreview: false }));
      await gw.waitForOutput(/channel config changed; restarting the account/, 10_000);
      await servers.telegram.waitFor(() => (gw.output().match(/channel account started/g) ?? []).length === 2, 10_000);
      await turn(sock, String(GROUP));
      expect(getChatCalls(String(GROUP))).toBe(2);
    } finally {
      sock.close();
    }
  });
});
