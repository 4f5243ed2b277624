import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/discord-server.js";
import type { FakeSlack } from "../fakes/slack-server.js";
import { askingModel } from "../helpers/ask-user-model.js";
import { type ChatSetup, startDiscordChat, startSlackChat } from "../helpers/chat-gateway.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * ask_user's option buttons on Discord and Slack: the question is posted in the channel the run
 * came from with a button per option; a press is the presser's `/answer <id> <n>`, answered to
 * them only, and the run goes on with that option; the question then shows the answer, its
 * buttons gone. Real gateway, discord.js and Bolt against the fakes, the fake model.
 */
/** How every question's prompt begins; in these channels it goes on with the asker's name. */
const PROMPT = "❓ Question for ";

describe("ask_user buttons on Discord", { timeout: 90_000 }, () => {
  const GUILD = "100000000000004900";
  const CHANNEL = "100000000000004901";
  const OWNER = "100000000000004110";
  let setup: ChatSetup<FakeDiscord>;
  beforeAll(async () => {
    setup = await startDiscordChat({ botId: "100000000000004800", guildId: GUILD, channelId: CHANNEL, owner: OWNER, responder: askingModel });
  });
  afterAll(() => setup?.close());

  it("a press answers for its presser, shown to them only; the question then shows the answer without buttons", async () => {
    const discord = setup.platform;
    discord.pushMessage({ channelId: CHANNEL, guildId: GUILD, authorId: OWNER, authorName: "Owner", content: "pick a target" });
    await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content.startsWith(PROMPT)), 30_000, "the question");
    const question = discord.messages(CHANNEL).find((m) => m.content.startsWith(PROMPT))!;
    // In a guild channel the question names the one it is for.
    expect(question.content).toMatch(/^❓ Question for Owner:\n/);
    type Button = { label: string; custom_id: string };
    const buttons = () => ((discord.storedMessage(question.id)?.components ?? []) as { components: Button[] }[]).flatMap((row) => row.components);
    await waitUntil(() => buttons().length === 3, 15_000, "the option buttons");
    const id = /\/answer (ask_[0-9a-f]{32}) /.exec(question.content)![1]!;
    expect(buttons().map((b) => [b.label, b.custom_id])).toEqual([
      ["Staging (Recommended)", `/answer ${id} 1`],
      ["Production", `/answer ${id} 2`],
      ["Other…", `/answer ${id}`],
    ]);

    // "Other…" only tells its presser how to give their own answer; the question still waits.
    const other = discord.pushButton({ channelId: CHANNEL, messageId: question.id, userId: OWNER, customId: `/answer ${id}` });
    await waitUntil(() => discord.interactionReplies(other).some((r) => r.kind === "original"), 15_000, "the answer to the Other… press");
    expect(discord.interactionReplies(other).find((r) => r.kind === "original")!.content).toBe(`✍️ Reply with your own answer (or /answer ${id} <your answer>).`);
    expect(buttons()).toHaveLength(3);

    const press = discord.pushButton({ channelId: CHANNEL, messageId: question.id, userId: OWNER, customId: `/answer ${id} 2` });
    await waitUntil(() => discord.interactionReplies(press).some((r) => r.kind === "original"), 15_000, "the answer to the press");
    expect(discord.interactionReplies(press)[0]).toEqual(expect.objectContaining({ kind: "callback", type: 5, flags: 64 }));
    expect(discord.interactionReplies(press).find((r) => r.kind === "original")!.content).toBe("✅ Answer sent.");
    await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content === "Result: Target: Production"), 30_000, "the run's answer");
    await waitUntil(() => String(discord.storedMessage(question.id)?.content).endsWith("✅ Answered: Production"), 15_000, "the question's outcome");
    expect(buttons()).toEqual([]);
  });
});

describe("ask_user buttons on Slack", { timeout: 90_000 }, () => {
  const OWNER = "U401";
  const CHANNEL = "C0ASKUSER";
  let setup: ChatSetup<FakeSlack>;
  beforeAll(async () => {
    setup = await startSlackChat({ owner: OWNER, responder: askingModel });
  });
  afterAll(() => setup?.close());

  type Update = { text: string; blocks: { type: string; elements?: { value: string; text: { text: string } }[] }[] };
  const updates = (slack: FakeSlack, ts: string) =>
    slack.calls
      .filter((c) => c.method === "chat.update" && c.body.ts === ts)
      .map((c) => ({ ...c.body, blocks: typeof c.body.blocks === "string" ? JSON.parse(c.body.blocks) : c.body.blocks }) as unknown as Update);

  it("a press answers for its presser on the response_url; the question then shows the answer without buttons", async () => {
    const slack = setup.platform;
    slack.pushMessage({ channel: CHANNEL, user: OWNER, text: `<@${slack.botUserId}> pick a target`, appMention: true });
    await waitUntil(() => slack.posted.some((p) => p.channel === CHANNEL && p.text.startsWith(PROMPT)), 30_000, "the question");
    const index = slack.posted.findIndex((p) => p.channel === CHANNEL && p.text.startsWith(PROMPT));
    const ts = slack.postedTs[index]!;
    // In a channel the question names the one it is for (the fake's display name for OWNER).
    expect(slack.posted[index]!.text).toMatch(/^❓ Question for user-u401:\n/);
    const id = /\/answer (ask_[0-9a-f]{32}) /.exec(slack.posted[index]!.text)![1]!;
    const buttons = () => (updates(slack, ts)[0]?.blocks ?? []).flatMap((b) => b.elements ?? []).map((e) => [e.text.text, e.value]);
    await waitUntil(() => buttons().length === 3, 15_000, "the option buttons");
    expect(buttons()).toEqual([
      ["Staging (Recommended)", `/answer ${id} 1`],
      ["Production", `/answer ${id} 2`],
      ["Other…", `/answer ${id}`],
    ]);

    const { triggerId } = slack.pushButtonPress({ channel: CHANNEL, user: OWNER, messageTs: ts, value: `/answer ${id} 1` });
    await waitUntil(() => slack.responses(triggerId).length > 0, 15_000, "the answer on the press's response_url");
    expect(slack.responses(triggerId)[0]).toEqual({ text: "✅ Answer sent.", response_type: "ephemeral" });
    await waitUntil(() => slack.posted.some((p) => p.channel === CHANNEL && p.text === "Result: Target: Staging (Recommended)"), 30_000, "the run's answer");
    await waitUntil(() => updates(slack, ts).length === 2, 15_000, "the question's outcome");
    expect(updates(slack, ts)[1]!.text).toContain("✅ Answered: Staging (Recommended)");
    expect(updates(slack, ts)[1]!.blocks).toEqual([]);
  });
});
