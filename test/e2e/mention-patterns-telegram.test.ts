import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Mention gating by the routed agent's patterns, through a real gateway and grammY against a fake
 * Bot API: in a group that requires a mention, the `ops` group is bound to an agent whose
 * `groupChat.mentionPatterns` name it, and the default agent has none anywhere, so its identity
 * name counts; other messages wait as group history.
 */

const ANN = 777;
const OPS = -100501;
const LOUNGE = -100502;
const TEAM = -100503;
const CAFE = -100504;
const servers = useFakeServers({ telegram: true });

describe("mention patterns per agent over Telegram", { timeout: 60_000 }, () => {
  it("the bound agent's patterns and the default agent's identity name count as mentions; other text does not", async () => {
    const stateDir = makeTempDir("openclaw-mention-patterns-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserText(req).split("\n").at(-1)}` }));
    const telegram = telegramChannelConfig(servers.telegram, { allowFrom: [String(ANN)], groupAllowFrom: [String(ANN)], groups: { [OPS]: {}, [LOUNGE]: {} } });
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: { telegram },
        bindings: [{ agentId: "ops", match: { channel: "telegram", peer: { kind: "group", id: String(OPS) } } }],
      }),
    );
    config.agents.entries = { main: { default: true, identity: { name: "Claw" } }, ops: { groupChat: { mentionPatterns: ["\\bpager\\b"] } } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const say = (chatId: number, text: string) => servers.telegram.pushMessage({ chatId, fromId: ANN, fromName: "Ann", text, messageId: messageId++ });
    const replies = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

    say(OPS, "claw, anyone?");
    say(OPS, "pager: the disk is full");
    await servers.telegram.waitFor(() => replies(OPS).length === 1, 15_000);
    say(LOUNGE, "hello everyone");
    say(LOUNGE, "what do you think, Claw?");
    await servers.telegram.waitFor(() => replies(LOUNGE).length === 1, 15_000);
    expect(replies(OPS)).toEqual(["re: [Ann] pager: the disk is full"]);
    expect(replies(LOUNGE)).toEqual(["re: [Ann] what do you think, Claw?"]);
    await gateway.stop();
  });
  it("a mentionPatterns policy on the channel: mode deny turns the patterns off except in allowIn; denyIn turns them off there; a native @mention still counts", async () => {
    const stateDir = makeTempDir("openclaw-mention-scope-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserText(req).split("\n").at(-1)}` }));
    const telegram = {
      ...telegramChannelConfig(servers.telegram, { allowFrom: [String(ANN)], groupAllowFrom: [String(ANN)], groups: { [TEAM]: {}, [CAFE]: {} } }),
      mentionPatterns: { mode: "deny", allowIn: [String(TEAM), String(CAFE)], denyIn: [String(CAFE)] },
    };
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { channels: { telegram } }));
    config.messages = { groupChat: { mentionPatterns: ["\\bclaw\\b"] } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 100;
    const say = (chatId: number, text: string, entities?: Array<Record<string, unknown>>) =>
      servers.telegram.pushMessage({ chatId, fromId: ANN, fromName: "Ann", text, messageId: messageId++, ...(entities ? { entities } : {}) });
    const replies = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

    // CAFE is in both lists: denyIn wins, so "claw" is plain text there; an @mention of the bot is not.
    say(CAFE, "claw, are you there?");
    const mention = `@${servers.telegram.botUsername} status?`;
    say(CAFE, mention, [{ type: "mention", offset: 0, length: servers.telegram.botUsername.length + 1 }]);
    await servers.telegram.waitFor(() => replies(CAFE).length === 1, 15_000);
    say(TEAM, "claw, the disk is full");
    await servers.telegram.waitFor(() => replies(TEAM).length === 1, 15_000);
    expect(replies(CAFE)).toEqual(["re: [Ann] status?"]);
    expect(replies(TEAM)).toEqual(["re: [Ann] claw, the disk is full"]);
    await gateway.stop();
  });
});
