import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram } from "../fakes/telegram-server.js";
import { inlineKeyboardOf, pressButton, startApprovalGateway, type ApprovalGateway } from "../helpers/exec-approval-chat.js";

/**
 * An exec approval a chat's run asks for is shown in that chat with its `/approve` line, and the
 * owner answers it there; `approvals.exec` with targets (mode both) shows it in another chat too.
 * Real gateway, Telegram fake, a real shell command.
 */

const OWNER = 901;
const ADMIN_CHAT = 902;

let setup: ApprovalGateway;
let telegram: FakeTelegram;
let messageId = 1;

beforeAll(async () => {
  setup = await startApprovalGateway(
    OWNER,
    { dmPolicy: "allowlist", allowFrom: [String(OWNER)] },
    {
      approvals: { exec: { enabled: true, mode: "both", agentFilter: ["main"], targets: [{ channel: "telegram", to: String(ADMIN_CHAT) }] } },
    },
  );
  telegram = setup.telegram;
});
afterAll(async () => {
  await setup?.close();
});

describe("exec approvals in chat", { timeout: 90_000 }, () => {
  it("the prompt reaches the run's chat and approvals.exec's target; /approve from the owner's chat runs the command", async () => {
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "please run the report", messageId: messageId++ });
    await telegram.waitFor(() => telegram.messages(OWNER).some((m) => String(m.text).includes("/approve ")), 30_000);
    const prompt = String(telegram.messages(OWNER).find((m) => String(m.text).includes("/approve "))!.text);
    expect(prompt).toContain("🔐 Exec approval needed (agent main):");
    expect(prompt).toContain("printf approved-output");
    const id = /\/approve (\S+) allow-once/.exec(prompt)![1]!;
    await telegram.waitFor(() => telegram.messages(ADMIN_CHAT).some((m) => String(m.text).includes(`/approve ${id}`)), 10_000);

    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: `/approve ${id} allow-once`, messageId: messageId++ });
    await telegram.waitFor(() => telegram.messages(OWNER).some((m) => String(m.text) === "Command result: ran"), 30_000);
  });

  it("on Telegram the prompt has a button per decision; a press by the owner answers it, and every prompt then says how it ended", async () => {
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "please run the report again", messageId: messageId++ });
    const buttoned = () => telegram.sent.filter((call) => call.method === "editMessageReplyMarkup" && String(call.body.chat_id) === String(OWNER));
    const before = buttoned().length;
    await telegram.waitFor(() => buttoned().length > before, 30_000);
    const call = buttoned().at(-1)!;
    const row = inlineKeyboardOf(call)[0]!;
    expect(row.map((b) => [b.text, b.style])).toEqual([
      ["Allow once", "success"],
      ["Allow always", "primary"],
      ["Deny", "danger"],
    ]);
    const id = /^\/approve (\S+) allow-once$/.exec(row[0]!.callback_data)![1]!;
    expect(row.map((b) => b.callback_data)).toEqual([`/approve ${id} allow-once`, `/approve ${id} allow-always`, `/approve ${id} deny`]);
    await telegram.waitFor(() => telegram.sent.some((c) => c.method === "editMessageReplyMarkup" && String(c.body.chat_id) === String(ADMIN_CHAT)), 10_000);

    pressButton(telegram, { id: "cb-owner", fromId: OWNER, chatId: OWNER, messageId: Number(call.body.message_id), data: row[0]!.callback_data });
    await telegram.waitFor(() => ranCount() >= 2, 30_000);

    const edited = (chat: number) =>
      telegram.sent.filter((c) => c.method === "editMessageText" && String(c.body.chat_id) === String(chat) && String(c.body.text).includes("printf approved-output"));
    await telegram.waitFor(() => edited(OWNER).some((c) => String(c.body.text).includes("✅ Allowed once.")), 10_000);
    await telegram.waitFor(() => edited(ADMIN_CHAT).some((c) => String(c.body.text).includes("✅ Allowed once.")), 10_000);
    expect(String(edited(OWNER).at(-1)!.body.text)).not.toContain("Reply /approve");
    expect(telegram.calls.some((c) => c.method === "answerCallbackQuery" && c.body.callback_query_id === "cb-owner")).toBe(true);
  });
});

function ranCount(): number {
  return telegram.messages(OWNER).filter((m) => String(m.text) === "Command result: ran").length;
}
