import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { readIndex } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `session.identityLinks` and `session.groupScope` through a real gateway and grammY against a
 * fake Bot API: a linked person's DM runs in the session of their canonical id, and with
 * `groupScope: main` a group's messages join the main session.
 */

const ALICE = 777;
const BOB = 888;
const GROUP = -100500;
const servers = useFakeServers({ telegram: true });

describe("session scopes over Telegram", { timeout: 60_000 }, () => {
  it("identityLinks key a linked DM sender by their canonical id; groupScope main folds a group into the main session", async () => {
    const stateDir = makeTempDir("openclaw-session-scopes-");
    servers.model.setResponder(() => ({ text: "ok" }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(ALICE), String(BOB)],
      groupAllowFrom: [String(ALICE)],
      requireMention: false,
      groups: { [GROUP]: {} },
    });
    const session = { dmScope: "per-peer", groupScope: "main", identityLinks: { alice: [`telegram:${ALICE}`, "discord:80351110224678912"] } };
    const gateway = servers.keep(
      await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram }, session }) } }),
    );
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const say = async (chatId: number, fromId: number, text: string) => {
      const before = servers.telegram.messages(chatId).length;
      servers.telegram.pushMessage({ chatId, fromId, fromName: "Someone", text, messageId: messageId++ });
      await servers.telegram.waitFor(() => servers.telegram.messages(chatId).length > before, 15_000);
    };
    await say(ALICE, ALICE, "hi from alice");
    await say(BOB, BOB, "hi from bob");
    await say(GROUP, ALICE, "hi group");
    await gateway.stop();
    expect(Object.keys(readIndex(stateDir)).sort()).toEqual(["agent:main:direct:888", "agent:main:direct:alice", "agent:main:main"]);
  });
});
