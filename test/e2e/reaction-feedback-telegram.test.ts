import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { FEEDBACK_ONLY_REVIEW, labelPass, rateAsOperator, reviewQueue } from "../helpers/review-queue.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Telegram reactions as feedback through a real gateway and grammY: the owner's 👎 on the bot's
 * reply queues the run that wrote it (`negative-feedback`), taking it back takes the rating back
 * while it is still hers, 👍 rates it up, a stranger's reaction rates nothing, other emoji rate nothing, the `System:` notices still come, and a reaction after
 * a restart still finds its run; `reactionFeedback: false` turns it off.
 */

const OWNER = 4242;
const STRANGER = 7373;
const GROUP = -100888;
const servers = useFakeServers({ telegram: true });

/** The poller confirmed the update (its next getUpdates offset is past it): the gateway is done with it. */
const handled = (updateId: number) => servers.telegram.waitFor(() => servers.telegram.getUpdatesOffsets.some((offset) => offset !== undefined && offset > updateId), 10_000);

const owner = { fromId: OWNER, fromName: "Olivia", fromUsername: "olivia" };

/** Sends `text` as the owner into `chatId` and waits for the bot's answer: the id of its reply there. */
async function ask(chatId: number, text: string, messageId: number): Promise<number> {
  const before = servers.telegram.messages(chatId).length;
  servers.telegram.pushMessage({ chatId, ...owner, text, messageId });
  await servers.telegram.waitFor(() => servers.telegram.messages(chatId).length === before + 1, 15_000);
  return servers.telegram.lastBotMessageId(chatId)!;
}

describe("Telegram reactions as feedback", { timeout: 120_000 }, () => {
  it("👎 queues the reply's run, 👍 rates it up, a stranger's and other emoji change nothing; the link survives a restart", async () => {
    const stateDir = makeTempDir("openclaw-reaction-feedback-tg-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
    const telegram = telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], groups: { [GROUP]: { requireMention: false, allowFrom: [String(OWNER)] } } });
    const config = { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram }, ...FEEDBACK_ONLY_REVIEW }) };
    const first = servers.keep(await startGateway({ stateDir, configFile: config }));
    await first.waitForOutput(/channel account started/, 10_000);

    const dmReply = await ask(OWNER, "hello", 11);
    // Another emoji first: no rating.
    await handled(servers.telegram.pushReaction({ chatId: OWNER, messageId: dmReply, ...owner, emoji: ["🔥"] }));
    expect(await reviewQueue(first)).toEqual([]);
    const react = (before: string[], emoji: string[]) => handled(servers.telegram.pushReaction({ chatId: OWNER, messageId: dmReply, ...owner, before, emoji }));
    await react(["🔥"], ["🔥", "👎"]);
    const [down] = await reviewQueue(first);
    expect(down).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down", note: `👎 reaction on telegram by user ${OWNER} on msg ${dmReply}` } });
    const dmRun = down!.run.runId;

    // Taken back while it is still hers: the rating goes, and the run leaves the queue.
    await react(["🔥", "👎"], ["🔥"]);
    expect(await reviewQueue(first)).toEqual([]);
    // Rated down again, then an operator's rating replaces hers: her removal leaves the operator's.
    await react(["🔥"], ["🔥", "👎"]);
    await rateAsOperator(first, dmRun, "down", "checked by ops");
    await react(["🔥", "👎"], ["🔥"]);
    expect(await reviewQueue(first)).toEqual([
      expect.objectContaining({ reasons: ["negative-feedback"], feedback: expect.objectContaining({ rating: "down", note: "checked by ops" }) }),
    ]);

    // 👍: the rating is up, so the run leaves the queue; labelled, it shows its rating.
    await react(["🔥"], ["🔥", "👍"]);
    expect(await reviewQueue(first)).toEqual([]);
    await labelPass(first, dmRun);
    expect(await reviewQueue(first)).toEqual([
      expect.objectContaining({ run: expect.objectContaining({ runId: dmRun }), reasons: ["manual"], feedback: expect.objectContaining({ rating: "up" }) }),
    ]);

    // In a group: a member the group does not admit rates nothing.
    const groupReply = await ask(GROUP, "group question", 21);
    await handled(servers.telegram.pushReaction({ chatId: GROUP, messageId: groupReply, fromId: STRANGER, fromName: "Sam", emoji: ["👎"] }));
    expect((await reviewQueue(first)).map((i) => i.run.runId)).toEqual([dmRun]);
    // The notices are unchanged: the owner's reactions on the bot's reply reach her next message.
    await ask(OWNER, "what did I think?", 12);
    const prompt = lastUserTextOf(chatRequests(servers.model.requests).at(-1)!);
    for (const emoji of ["🔥", "👎", "👍"]) expect(prompt).toContain(`Telegram reaction added: ${emoji} by Olivia (@olivia) on msg ${dmReply}`);
    await first.stop();

    // After a restart the delivery ledger has forgotten the finished reply; the owner's 👎 still finds its run.
    const second = servers.keep(await startGateway({ stateDir, configFile: config }));
    await second.waitForOutput(/channel account started/, 10_000);
    await handled(servers.telegram.pushReaction({ chatId: GROUP, messageId: groupReply, ...owner, emoji: ["👎"] }));
    const queue = await reviewQueue(second);
    const groupItem = queue.find((i) => i.run.runId !== dmRun);
    expect(groupItem).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down" }, run: { sessionKey: expect.stringContaining(String(GROUP)) } });

    await second.stop();
  });

  it("reactionFeedback: false: a 👎 rates nothing, its notice still comes", async () => {
    const stateDir = makeTempDir("openclaw-reaction-feedback-tg-off-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
    const telegram = telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)] });
    const review = { sampleRate: 0, newModelHours: 0, reactionFeedback: false };
    const gateway = servers.keep(
      await startGateway({
        stateDir,
        configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram }, diagnostics: { traces: { review } } }) },
      }),
    );
    await gateway.waitForOutput(/channel account started/, 10_000);
    const reply = await ask(OWNER, "hello", 31);
    await handled(servers.telegram.pushReaction({ chatId: OWNER, messageId: reply, ...owner, emoji: ["👎"] }));
    expect(await reviewQueue(gateway)).toEqual([]);
    await ask(OWNER, "and?", 32);
    expect(lastUserTextOf(chatRequests(servers.model.requests).at(-1)!)).toContain(`Telegram reaction added: 👎 by Olivia (@olivia) on msg ${reply}`);
    await gateway.stop();
  });
});
