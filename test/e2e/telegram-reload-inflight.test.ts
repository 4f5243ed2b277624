import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { chatRequests, sleep, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A Telegram update the account was still handing over (its photo's `getFile` held) when a reload
 * restarted the account and sent the chat to another agent. Telegram hands the unconfirmed batch
 * to the restarted account again; the update is answered once all the same.
 */

const OWNER = 5151;
const servers = useFakeServers({ telegram: true });

function configFor(stateDir: string, routedTo: "main" | "other", telegramExtra: Record<string, unknown> = {}): string {
  const config = JSON.parse(
    fakeModelConfig(servers.model, stateDir, {
      session: { dmScope: "per-channel-peer" },
      channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], ...telegramExtra }) },
      bindings: [{ agentId: routedTo, match: { channel: "telegram", peer: { kind: "direct", id: String(OWNER) } } }],
    }),
  );
  config.agents.list = [{ id: "main", default: true }, { id: "other" }];
  return JSON.stringify(config, null, 2);
}

describe("a Telegram update being handed over when a reload restarts its account", () => {
  it("is answered once, though the restarted account fetches it again under a binding that routes it elsewhere", { timeout: 60_000 }, async () => {
    servers.model.setResponder(() => ({ text: "seen it" }));
    const stateDir = makeTempDir();
    const gw: GatewayProcess = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir, "main") } }));
    await gw.waitForOutput(/channel account started/, 10_000);
    const photo = servers.telegram.addFile(Buffer.from("fake png bytes"), "photos/file_1.jpg");
    servers.telegram.hangNext("getFile");
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "look", photo, messageId: 1 });
    await servers.telegram.waitFor(() => servers.telegram.calls.some((c) => c.method === "getFile"), 10_000);

    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor(stateDir, "other", { linkPreview: false }));
    await gw.waitForOutput(/channel config changed; restarting the account/, 10_000);
    // The old account's stop waits on the held update, past the stop bound; then the new one polls.
    await waitUntil(() => (gw.output().match(/channel account started/g) ?? []).length === 2, 20_000, "the restarted account");
    // The restarted account's first poll carries no offset: Telegram hands the held update out again.
    await servers.telegram.waitFor(() => servers.telegram.getUpdatesOffsets.filter((offset) => offset === undefined).length === 2, 10_000);
    await sleep(1_000);
    servers.telegram.release();
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length >= 1, 10_000);
    await sleep(1_500);
    expect(servers.telegram.messages(OWNER).map((m) => m.text)).toEqual(["seen it"]);
    expect(chatRequests(servers.model)).toHaveLength(1);
  });
});
