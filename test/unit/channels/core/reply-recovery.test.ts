import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../../src/agents/types.js";
import { DeliveryLedger, type DeliveryTarget } from "../../../../src/channels/outbound/delivery-ledger.js";
import { ReplyDelivery } from "../../../../src/channels/outbound/reply-delivery.js";
import { recoverReply } from "../../../../src/channels/recover-reply.js";
import type { ChannelAccount, OutboundTarget, OutboundText } from "../../../../src/channels/types.js";
import type { IdempotencyRecord } from "../../../../src/sessions/idempotency/idempotency-record.js";

const ledgers: DeliveryLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

const CHAT: DeliveryTarget = { channel: "telegram", accountId: "default", chatId: "42" };

function fakeAccount(sent: string[]): ChannelAccount {
  return {
    start: async () => {},
    stop: async () => {},
    send: async (_target: OutboundTarget, text: OutboundText) => {
      sent.push(text.markdown);
      return { messageId: String(sent.length) };
    },
    sendFile: async () => ({ messageId: "file" }),
    resolveTarget: async (raw: string) => ({ chatId: raw }),
    describeSender: (id: string) => id,
  } as ChannelAccount;
}

const okRecord = (key: string): IdempotencyRecord => ({ key, runId: key, sessionKey: "agent:main:main", method: "channel", status: "ok", startedAt: 1, completedAt: 2 });
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] }) as unknown as TranscriptMessage;
const assistant = (text: string, answers?: string[]) => ({ role: "assistant", content: [{ type: "text", text }], ...(answers ? { answers } : {}) }) as unknown as TranscriptMessage;

describe("ReplyDelivery.recover after a restart", () => {
  it("two messages answered by one merged turn whose reply was never recorded get that answer once in their chat", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "recovery-")), "delivery-ledger.jsonl");
    const before = DeliveryLedger.open(file);
    // Both messages were accepted; the merged turn answered them, then the process died before the reply was recorded.
    before.expect("telegram|default|agent:main:main|42|1", CHAT, { sessionKey: "agent:main:main", runId: "telegram|default|agent:main:main|42|1" });
    before.expect("telegram|default|agent:main:main|42|2", CHAT, { sessionKey: "agent:main:main", runId: "telegram|default|agent:main:main|42|2" });
    await before.whenDurable();
    before.close();
    const transcript = [user("first"), user("second"), assistant("one answer to both", ["telegram|default|agent:main:main|42|1", "telegram|default|agent:main:main|42|2"])];

    const ledger = DeliveryLedger.open(file);
    ledgers.push(ledger);
    const sent: string[] = [];
    const account = fakeAccount(sent);
    const delivery = new ReplyDelivery({ ledger, logger: pino({ level: "silent" }), account: () => ({ state: "running", account, limits: { textChunkLimit: 4000 } }) });
    const resumed = await delivery.recover((entry) => recoverReply(okRecord(entry.runId!), () => transcript));
    expect(resumed).toBe(2);
    for (let i = 0; i < 200 && ledger.unfinished().length > 0; i++) await new Promise((r) => setTimeout(r, 5));
    await delivery.close();
    expect(ledger.unfinished()).toEqual([]);
    expect(sent).toEqual(["one answer to both"]);
  });

  it("a run whose answer went out in blocks before the crash is not answered again; its unsent block still goes out", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "recovery-")), "delivery-ledger.jsonl");
    const before = DeliveryLedger.open(file);
    before.expect("run-1", CHAT, { sessionKey: "agent:main:main", runId: "run-1" });
    before.markStreamed("run-1");
    before.expect("run-1#block0", CHAT, {});
    before.recordReply("run-1#block0", ["first block"]);
    await before.whenDurable();
    before.close();
    const transcript = [user("question"), assistant("first block", ["run-1"])];

    const ledger = DeliveryLedger.open(file);
    ledgers.push(ledger);
    expect(ledger.get("run-1")?.streamed).toBe(true);
    const sent: string[] = [];
    const account = fakeAccount(sent);
    const delivery = new ReplyDelivery({ ledger, logger: pino({ level: "silent" }), account: () => ({ state: "running", account, limits: { textChunkLimit: 4000 } }) });
    await delivery.recover((entry) => recoverReply(okRecord(entry.runId!), () => transcript, entry.streamed));
    for (let i = 0; i < 200 && ledger.unfinished().length > 0; i++) await new Promise((r) => setTimeout(r, 5));
    await delivery.close();
    expect(sent).toEqual(["first block"]);
    expect(ledger.get("run-1")).toMatchObject({ state: "suppressed", reason: "sent as block replies before the restart" });
  });

  it("a run answering through the message tool sends no final text after a restart; a room event's run not even its failure", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "recovery-")), "delivery-ledger.jsonl");
    const before = DeliveryLedger.open(file);
    before.expect("run-1", CHAT, { sessionKey: "agent:main:main", runId: "run-1", replyVia: "message_tool" });
    before.expect("run-2", CHAT, { sessionKey: "agent:main:main", runId: "run-2", replyVia: "message_tool_only" });
    before.expect("run-3", CHAT, { sessionKey: "agent:main:main", runId: "run-3", replyVia: "message_tool" });
    await before.whenDurable();
    before.close();
    const transcript = [user("question"), assistant("private final", ["run-1"])];
    const failed = (key: string): IdempotencyRecord => ({ ...okRecord(key), status: "error", summary: "the model failed" });

    const ledger = DeliveryLedger.open(file);
    ledgers.push(ledger);
    expect(ledger.get("run-2")?.replyVia).toBe("message_tool_only");
    const sent: string[] = [];
    const account = fakeAccount(sent);
    const delivery = new ReplyDelivery({ ledger, logger: pino({ level: "silent" }), account: () => ({ state: "running", account, limits: { textChunkLimit: 4000 } }) });
    await delivery.recover((entry) => recoverReply(entry.runId === "run-1" ? okRecord("run-1") : failed(entry.runId!), () => transcript, entry.streamed, entry.replyVia));
    for (let i = 0; i < 200 && ledger.unfinished().length > 0; i++) await new Promise((r) => setTimeout(r, 5));
    await delivery.close();
    expect(sent).toEqual(["⚠️ the model failed"]);
    expect(ledger.get("run-1")).toMatchObject({ state: "suppressed", reason: expect.stringContaining("final text is private") });
    expect(ledger.get("run-2")).toMatchObject({ state: "suppressed", reason: expect.stringContaining("room event") });
  });
});
