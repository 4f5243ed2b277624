import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Telegram reactions through a real gateway and grammY: a reaction someone may reach the agent
 * with becomes a `System:` line in front of their session's next message (OpenClaw's wording),
 * once; `own` (the default) reports reactions to the bot's messages only; a stranger's reaction
 * gets neither a notice nor a pairing code; a queued notice survives a kill -9.
 */

const OWNER = 4242;
const STRANGER = 7373;
const GROUP = -100777;
const servers = useFakeServers({ telegram: true });

/** The poller confirmed the update (its next getUpdates offset is past it): the gateway is done with it. */
const handled = (updateId: number) => servers.telegram.waitFor(() => servers.telegram.getUpdatesOffsets.some((offset) => offset !== undefined && offset > updateId), 10_000);

const SYSTEM_LINE = /^System: \[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GMT[^\]]*\] /;

describe("Telegram reaction notifications", { timeout: 90_000 }, () => {
  it("own (default): the owner's reaction to the bot's reply reaches the next message once; others do not", async () => {
    const stateDir = makeTempDir("openclaw-reactions-tg-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
    const telegram = telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)] });
    const gateway = servers.keep(
      await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) } }),
    );
    await gateway.waitForOutput(/channel account started/, 10_000);

    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Olivia", fromUsername: "olivia", text: "hello", messageId: 11 });
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length === 1, 15_000);
    const botReply = servers.telegram.lastBotMessageId(OWNER)!;

    servers.telegram.pushReaction({ chatId: OWNER, messageId: botReply, fromId: OWNER, fromName: "Olivia", fromUsername: "olivia", emoji: ["👍"] });
    // Her own message is not the bot's: ignored under `own`.
    servers.telegram.pushReaction({ chatId: OWNER, messageId: 11, fromId: OWNER, fromName: "Olivia", fromUsername: "olivia", emoji: ["🎉"] });
    // The same emoji kept and one more added: only the added one is news.
    servers.telegram.pushReaction({ chatId: OWNER, messageId: botReply, fromId: OWNER, fromName: "Olivia", fromUsername: "olivia", before: ["👍"], emoji: ["👍", "🔥"] });
    // A stranger's DM reaction: no notice and no pairing code.
    const last = servers.telegram.pushReaction({ chatId: STRANGER, messageId: botReply, fromId: STRANGER, emoji: ["👎"] });
    await handled(last);

    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Olivia", fromUsername: "olivia", text: "what did I think?", messageId: 12 });
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length === 2, 15_000);
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Olivia", fromUsername: "olivia", text: "and now?", messageId: 13 });
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length === 3, 15_000);

    const prompts = chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));
    expect(prompts).toHaveLength(3);
    const lines = prompts[1]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`Telegram reaction added: 👍 by Olivia \\(@olivia\\) on msg ${botReply}$`));
    expect(lines[1]).toMatch(new RegExp(`Telegram reaction added: 🔥 by Olivia \\(@olivia\\) on msg ${botReply}$`));
    expect(lines[2]).toBe("");
    expect(lines.at(-1)).toContain("what did I think?");
    expect(prompts[1]).not.toContain("🎉");
    expect(prompts[1]).not.toContain("👎");
    // Carried once: the next message has no notice.
    expect(prompts[2]).not.toContain("System:");
    expect(servers.telegram.messages(STRANGER)).toHaveLength(0);
    await gateway.stop();
  });

  it("all: a reaction in a group goes to the group's session, and a queued notice survives kill -9", async () => {
    const stateDir = makeTempDir("openclaw-reactions-tg-group-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(OWNER)],
      groupPolicy: "open",
      requireMention: false,
      reactionNotifications: "all",
      groups: { [GROUP]: {} },
    });
    const config = { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) };
    const first = servers.keep(await startGateway({ stateDir, configFile: config }));
    await first.waitForOutput(/channel account started/, 10_000);
    // A member's message in the group that the bot did not write: `all` reports reactions to it too.
    // Its offset confirmed means the gateway had the notice on disk: then the process dies.
    await handled(servers.telegram.pushReaction({ chatId: GROUP, messageId: 900, fromId: STRANGER, fromName: "Sam", emoji: ["❤"] }));
    await first.stop("SIGKILL");

    const second = servers.keep(await startGateway({ stateDir, configFile: config }));
    await second.waitForOutput(/channel account started/, 10_000);
    servers.telegram.pushMessage({ chatId: GROUP, fromId: STRANGER, fromName: "Sam", text: "anyone there?", messageId: 901 });
    await servers.telegram.waitFor(() => servers.telegram.messages(GROUP).length === 1, 15_000);
    const prompt = lastUserTextOf(chatRequests(servers.model.requests).at(-1)!);
    expect(prompt.split("\n")[0]).toMatch(SYSTEM_LINE);
    expect(prompt.split("\n")[0]).toMatch(/Telegram reaction added: ❤ by Sam on msg 900$/);
    expect(prompt).toContain("anyone there?");
    await second.stop();
  });
});
