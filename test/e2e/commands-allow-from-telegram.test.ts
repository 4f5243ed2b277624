import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `commands.allowFrom` through a real gateway and grammY against a fake Bot API: in a group both
 * people may talk in, only the listed one runs chat commands; the other's `/status` and `/new`
 * are ignored (no answer, no reset, nothing to the agent) while their plain messages are answered.
 */

const ANN = 777;
const BOB = 888;
const GROUP = -100400;
const servers = useFakeServers({ telegram: true });

describe("commands.allowFrom over Telegram", { timeout: 60_000 }, () => {
  it("a sender the list leaves out cannot run commands; the listed one can", async () => {
    const stateDir = makeTempDir("openclaw-commands-allow-from-");
    servers.model.setResponder(() => ({ text: "answered" }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(ANN), String(BOB)],
      groupAllowFrom: [String(ANN), String(BOB)],
      requireMention: false,
      groups: { [GROUP]: {} },
    });
    const config = fakeModelConfig(servers.model, stateDir, { channels: { telegram }, commands: { allowFrom: { telegram: [`telegram:${ANN}`] } } });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const replies = () => servers.telegram.messages(GROUP).map((m) => String(m.text));
    const say = (fromId: number, text: string) => servers.telegram.pushMessage({ chatId: GROUP, fromId, fromName: fromId === ANN ? "Ann" : "Bob", text, messageId: messageId++ });

    say(BOB, "/status");
    say(BOB, "/new");
    await gateway.waitForOutput(/"command":"new".*chat command ignored: sender not in commands\.allowFrom/, 15_000);
    say(BOB, "hello from bob");
    await servers.telegram.waitFor(() => replies().length === 1, 15_000);
    expect(replies()).toEqual(["answered"]);
    say(ANN, "/status");
    await servers.telegram.waitFor(() => replies().length === 2, 15_000);
    expect(replies()[1]).toContain("Status");
    // Bob's /new reset nothing: the session still holds his message and its answer.
    expect(replies()[1]).toMatch(/Session: 2 messages/);
    expect(servers.model.requests.filter((r) => JSON.stringify(r.body).includes("/status"))).toEqual([]);
    await gateway.stop();
  });
});
