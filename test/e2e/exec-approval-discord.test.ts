import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/discord-server.js";
import { type ChatSetup, startDiscordChat } from "../helpers/chat-gateway.js";
import { ASK_ON_MISS, reportRunModel } from "../helpers/exec-approval-chat.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `channels.discord.execApprovals`: a run in a Discord server channel asks its exec approval in the
 * approver's DM and (target both) in the channel, each with Allow once / Allow always / Deny
 * buttons. A press is the `/approve` line typed by whoever pressed it, answered only to them: the
 * owner, not an approver here, is refused; the approver's press runs the command. The channel's
 * question is then edited to the outcome, its buttons gone, and the DM's deleted
 * (`cleanupAfterResolve`). A question Discord refuses to DM leaves a notice in the run's channel
 * instead, without the command. Real gateway, real discord.js against the Discord fake, a real command.
 */
const BOT = "100000000000002800";
const GUILD = "100000000000002900";
const CHANNEL = "100000000000002901";
const OWNER = "100000000000002110";
const APPROVER = "100000000000002111";

let setup: ChatSetup<FakeDiscord> | undefined;
let discord: FakeDiscord;

/**
 * A gateway whose Discord account asks exec approvals as `execApprovals` says. Only the owner may
 * talk to it (`allowFrom`); the approver answers in their DM all the same.
 */
async function startDiscordApprovals(execApprovals: Record<string, unknown>): Promise<void> {
  setup = await startDiscordChat({
    botId: BOT,
    guildId: GUILD,
    channelId: CHANNEL,
    owner: OWNER,
    responder: reportRunModel,
    settings: { execApprovals },
    config: ASK_ON_MISS,
  });
  discord = setup.platform;
}

async function stopDiscordApprovals(): Promise<void> {
  await setup?.close();
}

type Button = { type: number; style: number; label: string; custom_id: string };
const buttonsOf = (messageId: string) => ((discord.storedMessage(messageId)?.components ?? []) as { components: Button[] }[]).flatMap((row) => row.components);

/** Presses a button and waits for the answer only the presser sees (the edit of the deferred ephemeral reply). */
async function press(channelId: string, messageId: string, userId: string, customId: string): Promise<string> {
  const id = discord.pushButton({ channelId, messageId, userId, customId });
  await waitUntil(() => discord.interactionReplies(id).some((r) => r.kind === "original"), 15_000, "the answer to the button press");
  const replies = discord.interactionReplies(id);
  expect(replies[0]).toEqual(expect.objectContaining({ kind: "callback", type: 5, flags: 64 }));
  return replies.find((r) => r.kind === "original")!.content!;
}

describe("Discord exec approvals", { timeout: 90_000 }, () => {
  beforeAll(() => startDiscordApprovals({ enabled: true, approvers: [APPROVER], target: "both", cleanupAfterResolve: true }));
  afterAll(stopDiscordApprovals);

  it("asks in the approver's DM and the channel with buttons; the owner's press is refused, the approver's runs it; the channel's question shows the outcome, the DM's goes", async () => {
    discord.pushMessage({ channelId: CHANNEL, guildId: GUILD, authorId: OWNER, authorName: "Owner", content: "please run the report" });
    await waitUntil(() => discord.messages().filter((m) => m.content.includes("/approve ")).length === 2, 30_000, "the two approval questions");
    const [inChannel, inDm] = [
      discord.messages(CHANNEL).find((m) => m.content.includes("/approve "))!,
      discord.messages().find((m) => m.content.includes("/approve ") && m.channelId !== CHANNEL)!,
    ];
    expect(inChannel.content).toContain("printf approved-output");
    const id = /\/approve (\S+) allow-once/.exec(inChannel.content)![1]!;
    expect(inDm.content).toContain(`/approve ${id}`);

    // Buttons go on once each question is delivered.
    await waitUntil(() => buttonsOf(inChannel.id).length === 3 && buttonsOf(inDm.id).length === 3, 15_000, "the buttons");
    expect(buttonsOf(inDm.id).map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ["Allow once", 3, `/approve ${id} allow-once`],
      ["Allow always", 1, `/approve ${id} allow-always`],
      ["Deny", 4, `/approve ${id} deny`],
    ]);

    // The owner is not among the explicit approvers: refused, and only they see it.
    const refusal = await press(CHANNEL, inChannel.id, OWNER, `/approve ${id} allow-once`);
    expect(refusal).toBe("/approve is for this chat's exec approvers only (channels.discord.execApprovals.approvers, else commands.ownerAllowFrom).");
    expect(discord.messages(CHANNEL).some((m) => m.content.includes("exec approvers only"))).toBe(false);

    const approved = await press(inDm.channelId, inDm.id, APPROVER, `/approve ${id} allow-once`);
    expect(approved).toBe(`Approval ${id}: allow-once.`);
    await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content === "Command result: ran"), 30_000, "the run's answer");

    await waitUntil(() => String(discord.storedMessage(inChannel.id)?.content).includes("✅ Allowed once."), 15_000, "the channel question's outcome");
    expect(buttonsOf(inChannel.id)).toEqual([]);
    await waitUntil(() => discord.deletedMessageIds.includes(inDm.id), 15_000, "the DM question deleted");
  });
});

describe("Discord exec approvals whose question reaches no approver", { timeout: 90_000 }, () => {
  beforeAll(() => startDiscordApprovals({ enabled: true, approvers: [APPROVER] }));
  afterAll(stopDiscordApprovals);

  it("leaves a notice in the run's channel, without the command, whose button the approver answers", async () => {
    // The approver takes no DMs from the bot: Discord refuses the question.
    discord.failNext(/^POST \/channels\/\d+\/messages$/, { status: 403, code: 50007, message: "Cannot send messages to this user" });
    discord.pushMessage({ channelId: CHANNEL, guildId: GUILD, authorId: OWNER, authorName: "Owner", content: "please run the report" });
    await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content.includes("/approve ")), 30_000, "the notice in the channel");
    const notice = discord.messages(CHANNEL).find((m) => m.content.includes("/approve "))!;
    expect(notice.content).toContain("reached none of the approvers' chats");
    expect(notice.content).not.toContain("printf");
    const id = /\/approve (\S+) allow-once/.exec(notice.content)![1]!;
    await waitUntil(() => buttonsOf(notice.id).length === 3, 15_000, "the notice's buttons");

    expect(await press(CHANNEL, notice.id, APPROVER, `/approve ${id} deny`)).toBe(`Approval ${id}: deny.`);
    await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content === "Command result: not run"), 30_000, "the run's answer");
    await waitUntil(() => String(discord.storedMessage(notice.id)?.content).includes("❌ Denied."), 15_000, "the notice's outcome");
    expect(discord.storedMessage(notice.id)?.content).toBe(`🔐 Exec approval ${id} (agent main):\n❌ Denied.`);
  });
});
