import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/discord-server.js";
import type { FakeReply, RecordedRequest } from "../fakes/model-server.js";
import type { FakeSlack } from "../fakes/slack-server.js";
import { type ChatSetup, startDiscordChat, startSlackChat } from "../helpers/chat-gateway.js";
import { inlineKeyboardOf, pressButton, startApprovalGateway, type ApprovalGateway } from "../helpers/exec-approval-chat.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";

/**
 * Buttons the agent sends with the `message` tool, end to end on each chat platform: the text is
 * delivered with the buttons put under it (a Telegram inline keyboard, Discord buttons, Slack
 * Block Kit), and a press comes back to the agent as its presser's message
 * `callback_data: <value>`, which it answers in the chat. Real gateway, real SDKs, the fakes.
 */
const BUTTONS = [
  [
    { label: "Yes", value: "yes", style: "success" },
    { label: "No", value: "no", style: "danger" },
  ],
];

/** Offers a choice with the message tool when asked, and says what was chosen when a press arrives. */
function choiceModel(req: RecordedRequest): FakeReply {
  if (req.body.messages?.at(-1)?.role === "tool") return { text: "offered" };
  const text = lastUserText(req);
  const chosen = /callback_data: (\w+)/.exec(text)?.[1];
  if (chosen) return { text: `You chose ${chosen}` };
  if (text.includes("offer a choice")) return { toolCalls: [{ name: "message", arguments: { message: "Ship it?", buttons: BUTTONS } }] };
  return { text: "ok" };
}

describe("agent buttons on Telegram", { timeout: 90_000 }, () => {
  const OWNER = 931;
  let setup: ApprovalGateway;
  beforeAll(async () => {
    setup = await startApprovalGateway(OWNER, { dmPolicy: "allowlist", allowFrom: [String(OWNER)] });
    setup.model.setResponder(choiceModel);
  });
  afterAll(() => setup?.close());

  it("puts an inline keyboard under the agent's message; a press reaches the agent as callback_data", async () => {
    const { telegram } = setup;
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "offer a choice", messageId: 1 });
    await telegram.waitFor(() => telegram.sent.some((c) => c.method === "editMessageReplyMarkup"), 30_000);
    const keyboard = telegram.sent.find((c) => c.method === "editMessageReplyMarkup")!;
    expect(inlineKeyboardOf(keyboard)).toEqual([
      [
        { text: "Yes", callback_data: "yes", style: "success" },
        { text: "No", callback_data: "no", style: "danger" },
      ],
    ]);
    expect(telegram.messages(OWNER).map((m) => m.text)).toContain("Ship it?");
    pressButton(telegram, { id: "cb-yes", fromId: OWNER, chatId: OWNER, messageId: Number(keyboard.body.message_id), data: "yes" });
    await telegram.waitFor(() => telegram.messages(OWNER).some((m) => m.text === "You chose yes"), 30_000);
  });
});

const BOT = "100000000000003800";
const GUILD = "100000000000003900";
const CHANNEL = "100000000000003901";
const OWNER = "100000000000003110";

type DiscordSetup = ChatSetup<FakeDiscord>;

/** A gateway with a Discord account in which the owner talks to `choiceModel` in a server channel; `settings` adds to the account's. */
function startDiscordChoices(settings: Record<string, unknown> = {}): Promise<DiscordSetup> {
  return startDiscordChat({ botId: BOT, guildId: GUILD, channelId: CHANNEL, owner: OWNER, responder: choiceModel, settings });
}

/** Asks the agent for a choice and waits for its turn to end; resolves with the message its buttons are under. */
async function offerOnDiscord(discord: FakeDiscord): Promise<{ id: string }> {
  discord.pushMessage({ channelId: CHANNEL, guildId: GUILD, authorId: OWNER, authorName: "Owner", content: "offer a choice" });
  await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content === "offered"), 30_000, "the agent's turn");
  return discord.messages(CHANNEL).find((m) => m.content === "Ship it?")!;
}

describe("agent buttons on Discord", { timeout: 90_000 }, () => {
  let setup: DiscordSetup;
  beforeAll(async () => {
    setup = await startDiscordChoices();
  });
  afterAll(() => setup?.close());

  it("puts buttons under the agent's message; a press takes them off (single use) and reaches the agent as callback_data", async () => {
    const discord = setup.platform;
    const offer = await offerOnDiscord(discord);
    type Button = { label: string; style: number; custom_id: string };
    const buttons = () => ((discord.storedMessage(offer.id)?.components ?? []) as { components: Button[] }[]).flatMap((row) => row.components);
    await waitUntil(() => buttons().length === 2, 15_000, "the buttons");
    expect(buttons().map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ["Yes", 3, "yes"],
      ["No", 4, "no"],
    ]);
    const press = discord.pushButton({ channelId: CHANNEL, messageId: offer.id, userId: OWNER, customId: "yes" });
    await waitUntil(() => discord.messages(CHANNEL).some((m) => m.content === "You chose yes"), 30_000, "the agent's answer");
    // Answered as an update of the message that takes its buttons off; the agent answered in the channel.
    expect(discord.interactionReplies(press)).toEqual([expect.objectContaining({ kind: "callback", type: 7 })]);
    expect(buttons()).toEqual([]);
    expect(discord.storedMessage(offer.id)?.content).toBe("Ship it?");
  });
});

describe("agent buttons on Discord past agentComponents.ttlMs", { timeout: 90_000 }, () => {
  let setup: DiscordSetup;
  beforeAll(async () => {
    setup = await startDiscordChoices({ agentComponents: { ttlMs: 1 } });
  });
  afterAll(() => setup?.close());

  it("tells the presser the buttons expired, and the agent hears nothing", async () => {
    const { platform: discord, model } = setup;
    const offer = await offerOnDiscord(discord);
    const requests = model.requests.length;
    const press = discord.pushButton({ channelId: CHANNEL, messageId: offer.id, userId: OWNER, customId: "yes" });
    await waitUntil(() => discord.interactionReplies(press).length > 0, 15_000, "the answer to the press");
    expect(discord.interactionReplies(press)).toEqual([{ kind: "callback", type: 4, content: "These buttons have expired.", flags: 64 }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(model.requests.length).toBe(requests);
  });
});

describe("agent buttons on Slack", { timeout: 90_000 }, () => {
  const OWNER = "U401";
  const CHANNEL = "C0CHOICE";
  let setup: ChatSetup<FakeSlack> | undefined;
  let slack: FakeSlack;
  beforeAll(async () => {
    setup = await startSlackChat({ owner: OWNER, responder: choiceModel });
    slack = setup.platform;
  });
  afterAll(() => setup?.close());

  it("rewrites the agent's message with Block Kit buttons; a press reaches the agent as callback_data", async () => {
    slack.pushMessage({ channel: CHANNEL, user: OWNER, text: `<@${slack.botUserId}> offer a choice`, appMention: true });
    await waitUntil(() => slack.posted.some((p) => p.text === "Ship it?"), 30_000, "the agent's message");
    const ts = slack.postedTs[slack.posted.findIndex((p) => p.text === "Ship it?")]!;
    const update = () => slack.calls.find((c) => c.method === "chat.update" && c.body.ts === ts);
    await waitUntil(() => update() !== undefined, 15_000, "the buttons");
    const blocks = JSON.parse(String(update()!.body.blocks)) as { type: string; elements?: { value: string; style?: string }[] }[];
    expect(blocks.map((b) => b.type)).toEqual(["section", "actions"]);
    expect(blocks[1]!.elements!.map((e) => [e.value, e.style])).toEqual([
      ["yes", "primary"],
      ["no", "danger"],
    ]);
    const { envelopeId } = slack.pushButtonPress({ channel: CHANNEL, user: OWNER, messageTs: ts, value: "yes" });
    await waitUntil(() => slack.posted.some((p) => p.text === "You chose yes"), 30_000, "the agent's answer");
    expect(slack.acks.has(envelopeId)).toBe(true);
  });
});
