import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram } from "../fakes/telegram-server.js";
import { inlineKeyboardOf, pressButton, startApprovalGateway, type ApprovalGateway } from "../helpers/exec-approval-chat.js";

/**
 * `channels.telegram.execApprovals`: a run in a Telegram group asks its question in the
 * approver's DM and, with target both, in the group, its buttons only in the DM
 * (`capabilities.inlineButtons: dm`); only the approver answers on Telegram, the owner too being
 * refused there. Real gateway, Telegram fake, a real command.
 */

const OWNER = 911;
const APPROVER = 912;
const GROUP = -100912;

let setup: ApprovalGateway;
let telegram: FakeTelegram;
let messageId = 1;

const texts = (chat: number) => telegram.messages(chat).map((m) => String(m.text));

beforeAll(async () => {
  setup = await startApprovalGateway(OWNER, {
    dmPolicy: "allowlist",
    allowFrom: [String(OWNER), String(APPROVER)],
    groupPolicy: "open",
    groups: { [GROUP]: { requireMention: false } },
    execApprovals: { approvers: [String(APPROVER)], target: "both" },
    capabilities: { inlineButtons: "dm" },
  });
  telegram = setup.telegram;
});
afterAll(async () => {
  await setup?.close();
});

describe("Telegram exec approvers", { timeout: 90_000 }, () => {
  it("a group run's question goes to the approver's DM and the group, buttoned in the DM; the owner may not answer on Telegram, the approver's button does", async () => {
    telegram.pushMessage({ chatId: GROUP, fromId: OWNER, fromName: "Owner", text: "please run the report", messageId: messageId++ });
    await telegram.waitFor(() => texts(APPROVER).some((t) => t.includes("/approve ")), 30_000);
    const prompt = texts(APPROVER).find((t) => t.includes("/approve "))!;
    expect(prompt).toContain("printf approved-output");
    const id = /\/approve (\S+) allow-once/.exec(prompt)![1]!;
    // target both: the group is asked too, without buttons (inlineButtons: dm); the owner's DM is not.
    await telegram.waitFor(() => texts(GROUP).some((t) => t.includes(`/approve ${id}`)), 10_000);
    expect(texts(OWNER)).toEqual([]);

    telegram.pushMessage({ chatId: GROUP, fromId: OWNER, fromName: "Owner", text: `/approve ${id} allow-once`, messageId: messageId++ });
    await telegram.waitFor(() => texts(GROUP).some((t) => t.includes("exec approvers only")), 15_000);
    expect(texts(GROUP).find((t) => t.includes("exec approvers only"))).toBe(
      "/approve is for this chat's exec approvers only (channels.telegram.execApprovals.approvers, else commands.ownerAllowFrom).",
    );

    // The buttons are put on after the question is posted: wait for them, not just for the text.
    const dmButtons = () => telegram.sent.find((c) => c.method === "editMessageReplyMarkup" && String(c.body.chat_id) === String(APPROVER));
    await telegram.waitFor(() => dmButtons() !== undefined, 15_000);
    const buttons = dmButtons()!;
    pressButton(telegram, {
      id: "cb-approver",
      fromId: APPROVER,
      chatId: APPROVER,
      messageId: Number(buttons.body.message_id),
      data: inlineKeyboardOf(buttons)[0]![0]!.callback_data,
    });
    await telegram.waitFor(() => texts(GROUP).includes("Command result: ran"), 30_000);
    expect(telegram.sent.filter((c) => c.method === "editMessageReplyMarkup").map((c) => String(c.body.chat_id))).toEqual([String(APPROVER)]);
    await telegram.waitFor(
      () => telegram.sent.some((c) => c.method === "editMessageText" && String(c.body.chat_id) === String(APPROVER) && String(c.body.text).includes("✅ Allowed once.")),
      10_000,
    );
  });
});
