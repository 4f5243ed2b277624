import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../fakes/model-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * Chat commands about the session itself, through a real gateway:
 * - `/btw <question>`: the session's model answers it with the conversation as background, in a
 *   Telegram chat and over chat.send, and neither the question nor the answer becomes part of the
 *   conversation the next turn sees;
 * - `/name [title]`: the session's label, as the session lists show it.
 */

const OWNER = 931;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let sock: TestSocket;
let messageId = 1;

const systemOf = (req: RecordedRequest): string => String(req.body.messages?.[0]?.content ?? "");
const sideRequests = () => model.requests.filter((r) => systemOf(r).includes("side question"));

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => {
    const text = lastUserText(req);
    if (systemOf(req).includes("side question")) return { text: text.includes("teal") ? "Your favorite color is teal." : "I do not know." };
    return { text: `noted: ${text.slice(0, 40)}` };
  });
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const stateDir = makeTempDir();
  const content = fakeModelConfig(model, stateDir, {
    channels: { telegram: telegramChannelConfig(telegram, { dmPolicy: "allowlist", allowFrom: [String(OWNER)] }) },
  });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  await waitUntil(() => gw.output().includes("channel account started"), 30_000, "the Telegram account");
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

async function telegramSays(text: string, expectReplies: number): Promise<string[]> {
  const before = telegram.messages(OWNER).length;
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.messages(OWNER).length >= before + expectReplies, 30_000);
  return telegram
    .messages(OWNER)
    .slice(before)
    .map((m) => String(m.text));
}

describe("/btw side questions", { timeout: 90_000 }, () => {
  it("answers from the conversation in the chat, and the next turn does not see the side exchange", async () => {
    expect(await telegramSays("my favorite color is teal", 1)).toEqual(["noted: my favorite color is teal"]);
    expect(await telegramSays("/btw what is my favorite color?", 1)).toEqual(["BTW: Your favorite color is teal."]);
    const side = sideRequests().at(-1)!;
    expect(side.body.tools ?? []).toEqual([]);
    expect(lastUserText(side)).toContain("[user]: my favorite color is teal");
    expect(lastUserText(side)).toContain("Side question: what is my favorite color?");

    await telegramSays("and now something else", 1);
    const next = model.requests.at(-1)!;
    const sent = JSON.stringify(next.body.messages);
    expect(sent).toContain("my favorite color is teal");
    expect(sent).not.toContain("what is my favorite color");
    expect(sent).not.toContain("Your favorite color is teal.");
  });

  it("answers over chat.send too (/side is the same command)", async () => {
    const key = randomUUID();
    const ack = await sock.request("chat.send", { sessionKey: "agent:main:btw-ws", message: "/side anything new?", idempotencyKey: key });
    expect(ack.payload).toMatchObject({ status: "started", command: "btw", reply: "BTW: I do not know." });
  });
});

describe("/name", { timeout: 60_000 }, () => {
  it("suggests a name from the first message, names the session, and refuses a name another session holds", async () => {
    const suggestion = await telegramSays("/name", 1);
    expect(suggestion).toEqual(["This session has no name. Suggestion: /name My favorite color is teal"]);
    expect(await telegramSays("/name Colors and paints", 1)).toEqual(['This session is now named "Colors and paints".']);
    const { payload } = await sock.request("sessions.list", {});
    const row = payload.sessions.find((s: { label?: string }) => s.label === "Colors and paints");
    // A direct chat shares the agent's main session (session.dmScope main).
    expect(row?.key).toBe("agent:main:main");
    const other = await sock.request("chat.send", { sessionKey: "agent:main:other-chat", message: "/name Colors and paints", idempotencyKey: randomUUID() });
    expect(other.payload.reply).toBe('Not named: label "Colors and paints" is already used by session agent:main:main. Choose another name.');
    expect(await telegramSays("/name", 1)).toEqual(['This session is named "Colors and paints". Suggestion: /name My favorite color is teal']);
  });
});
