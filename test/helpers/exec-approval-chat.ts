import { startFakeModelServer, type FakeModelServer, type FakeReply, type RecordedRequest } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";
import { lastUserText, waitUntil } from "./reliability.js";
import { telegramChannelConfig } from "./telegram-channel-config.js";

export interface ApprovalGateway {
  model: FakeModelServer;
  telegram: FakeTelegram;
  gw: GatewayProcess;
  close(): Promise<void>;
}

/** Exec asks on a miss of an allowlist holding `echo` only: `printf` (what `reportRunModel` runs) asks. */
export const ASK_ON_MISS = { tools: { exec: { security: "allowlist", ask: "on-miss", allowlist: ["echo"] } } };

/**
 * A gateway with a Telegram account on the fake Bot API (`telegram` its settings), `owner` in
 * `commands.ownerAllowFrom`, exec asking on a miss of the `echo` allowlist, and `reportRunModel`
 * as the model; `extra` adds top-level config. Resolves once the account runs.
 */
export async function startApprovalGateway(owner: number, telegramSettings: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<ApprovalGateway> {
  const model = await startFakeModelServer();
  model.setResponder(reportRunModel);
  const telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const stateDir = makeTempDir();
  const content = fakeModelConfig(model, stateDir, {
    channels: { telegram: telegramChannelConfig(telegram, telegramSettings) },
    commands: { ownerAllowFrom: [`telegram:${owner}`] },
    ...ASK_ON_MISS,
    ...extra,
  });
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  await waitUntil(() => gw.output().includes("channel account started"), 30_000, "the Telegram account");
  return {
    model,
    telegram,
    gw,
    close: async () => {
      await gw.stop();
      await telegram.close();
      await model.close();
    },
  };
}

/** A model that asks to run `printf approved-output` when told to "run the report", then says whether it ran. */
export function reportRunModel(req: RecordedRequest): FakeReply {
  const last = req.body.messages?.at(-1);
  if (last?.role === "tool") return { text: `Command result: ${String(last.content).includes("approved-output") ? "ran" : "not run"}` };
  if (lastUserText(req).includes("run the report")) return { toolCalls: [{ name: "exec", arguments: { command: "printf approved-output" } }] };
  return { text: "ok" };
}

/** The inline keyboard an `editMessageReplyMarkup` call put on a message (grammy may send it as JSON text). */
export function inlineKeyboardOf(call: { body: Record<string, unknown> }): { text: string; callback_data: string; style?: string }[][] {
  const markup = typeof call.body.reply_markup === "string" ? JSON.parse(call.body.reply_markup) : call.body.reply_markup;
  return (markup as { inline_keyboard: { text: string; callback_data: string; style?: string }[][] }).inline_keyboard;
}

/** A user's press of a button under the bot's message `messageId`, as Telegram reports it: in a private chat, or a group for a negative `chatId`. */
export function pressButton(telegram: FakeTelegram, press: { id: string; fromId: number; chatId: number; messageId: number; data: string }): void {
  const chat = press.chatId < 0 ? { id: press.chatId, type: "supergroup", title: `Chat ${press.chatId}` } : { id: press.chatId, type: "private" };
  telegram.pushUpdate({
    callback_query: {
      id: press.id,
      from: { id: press.fromId, is_bot: false, first_name: "Presser" },
      message: { message_id: press.messageId, date: Math.floor(Date.now() / 1000), chat, text: "prompt" },
      data: press.data,
    },
  });
}
