import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { AutoSpeechPort, SpeechFile } from "../../../../src/channels/outbound/auto-speech.js";
import { DeliveryLedger, type DeliveryTarget } from "../../../../src/channels/outbound/delivery-ledger.js";
import { ReplyDelivery, speechIdOf } from "../../../../src/channels/outbound/reply-delivery.js";
import type { ChannelAccount, OutboundFile, OutboundText } from "../../../../src/channels/types.js";

const ledgers: DeliveryLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

const CHAT: DeliveryTarget = { channel: "telegram", accountId: "default", chatId: "42", replyToMessageId: "7" };
const REPLY = "The forecast says sunny skies this afternoon.";

/** What reached the chat, in order: `text:<markdown>` or `file:<name>`. */
function fakeAccount(posted: string[]): ChannelAccount {
  return {
    start: async () => {},
    stop: async () => {},
    send: async (_target: unknown, text: OutboundText) => {
      posted.push(`text:${text.markdown}`);
      return { messageId: String(posted.length) };
    },
    sendFile: async (_target: unknown, file: OutboundFile) => {
      posted.push(`file:${file.fileName}${file.voice ? " (voice)" : ""}`);
      return { messageId: String(posted.length) };
    },
    resolveTarget: async (raw: string) => ({ chatId: raw }),
    describeSender: (id: string) => id,
  } as ChannelAccount;
}

/** Speaks every reply as written; `made` counts the audio made, `fail` makes none. */
function fakeSpeech(options: { fail?: string } = {}): AutoSpeechPort & { made: string[] } {
  const made: string[] = [];
  return {
    made,
    spokenText: (_sessionKey, _target, reply) => reply,
    async synthesize(text): Promise<SpeechFile> {
      if (options.fail) return { ok: false, reason: options.fail };
      made.push(text);
      return { ok: true, file: { path: "/tmp/voice.ogg", fileName: `voice-${made.length}.ogg`, voice: true } };
    },
  };
}

function ledgerFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "auto-speech-")), "delivery-ledger.jsonl");
}

function deliveryOn(file: string, posted: string[], autoSpeech?: AutoSpeechPort): { ledger: DeliveryLedger; delivery: ReplyDelivery } {
  const ledger = DeliveryLedger.open(file);
  ledgers.push(ledger);
  const account = fakeAccount(posted);
  const delivery = new ReplyDelivery({
    ledger,
    logger: pino({ level: "silent" }),
    account: () => ({ state: "running", account, limits: { textChunkLimit: 4000 } }),
    ...(autoSpeech ? { autoSpeech } : {}),
  });
  return { ledger, delivery };
}

async function settled(ledger: DeliveryLedger): Promise<void> {
  for (let i = 0; i < 400 && ledger.unfinished().length > 0; i++) await new Promise((r) => setTimeout(r, 5));
}

const okRun = { status: "ok", startedAt: 1, result: { runId: "run-1", payloads: [{ text: REPLY }] } };

describe("Auto-TTS through the delivery ledger", () => {
  it("the reply's text goes first, then its spoken copy as a voice note, each recorded in the ledger", async () => {
    const posted: string[] = [];
    const speech = fakeSpeech();
    const { ledger, delivery } = deliveryOn(ledgerFile(), posted, speech);
    ledger.expect("run-1", CHAT, { sessionKey: "agent:main:main", runId: "run-1" });
    await delivery.deliverRun("run-1", "agent:main:main", okRun);
    await settled(ledger);
    expect(posted).toEqual([`text:${REPLY}`, "file:voice-1.ogg (voice)"]);
    expect(ledger.get(speechIdOf("run-1"))).toMatchObject({ speech: true, state: "delivered", chunks: [REPLY], target: { chatId: "42" } });
    // The voice note does not quote the user's message again.
    expect(ledger.get(speechIdOf("run-1"))!.target.replyToMessageId).toBeUndefined();
  });

  it("after a crash before the voice note went out, the restart sends it once; a later restart sends nothing", async () => {
    const file = ledgerFile();
    const before = DeliveryLedger.open(file);
    before.expect("run-1", CHAT, { sessionKey: "agent:main:main", runId: "run-1" });
    before.expect(speechIdOf("run-1"), CHAT, { sessionKey: "agent:main:main", speech: true });
    before.recordReply(speechIdOf("run-1"), [REPLY]);
    before.recordReply("run-1", [REPLY]);
    before.markSent("run-1", 0, "100");
    before.finish("run-1", "delivered");
    await before.whenDurable();
    before.close();

    const posted: string[] = [];
    const speech = fakeSpeech();
    const first = deliveryOn(file, posted, speech);
    expect(first.ledger.get(speechIdOf("run-1"))?.speech).toBe(true);
    expect(await first.delivery.recover(() => null)).toBe(1);
    await settled(first.ledger);
    await first.delivery.close();
    first.ledger.close();
    expect(posted).toEqual(["file:voice-1.ogg (voice)"]);
    expect(speech.made).toEqual([REPLY]);

    const second = deliveryOn(file, posted, speech);
    expect(await second.delivery.recover(() => null)).toBe(0);
    expect(posted).toHaveLength(1);
  });

  it("a voice note already marked sent is not sent again by a restart", async () => {
    const file = ledgerFile();
    const before = DeliveryLedger.open(file);
    before.expect(speechIdOf("run-1"), CHAT, { speech: true });
    before.recordReply(speechIdOf("run-1"), [REPLY]);
    before.markSent(speechIdOf("run-1"), 0, "101");
    await before.whenDurable();
    before.close();

    const posted: string[] = [];
    const speech = fakeSpeech();
    const { ledger, delivery } = deliveryOn(file, posted, speech);
    // Sent but not finished: owed on paper, yet its only chunk is marked, so nothing goes out.
    await delivery.recover(() => null);
    await settled(ledger);
    expect(posted).toEqual([]);
    expect(speech.made).toEqual([]);
  });

  it("no audio made: the text still goes once, the spoken copy ends failed with the reason and is not retried", async () => {
    const posted: string[] = [];
    const { ledger, delivery } = deliveryOn(ledgerFile(), posted, fakeSpeech({ fail: "openai/gpt-4o-mini-tts: HTTP 500 (the provider's server failed)" }));
    ledger.expect("run-1", CHAT, { sessionKey: "agent:main:main", runId: "run-1" });
    await delivery.deliverRun("run-1", "agent:main:main", okRun);
    await settled(ledger);
    expect(posted).toEqual([`text:${REPLY}`]);
    expect(ledger.get(speechIdOf("run-1"))).toMatchObject({ state: "failed", reason: "openai/gpt-4o-mini-tts: HTTP 500 (the provider's server failed)" });
  });

  it("a failure notice and a reply nobody speaks leave no spoken copy", async () => {
    const posted: string[] = [];
    const silent: AutoSpeechPort = { spokenText: () => undefined, synthesize: async () => ({ ok: false, reason: "unused" }) };
    const { ledger, delivery } = deliveryOn(ledgerFile(), posted, silent);
    ledger.expect("run-1", CHAT, { runId: "run-1" });
    await delivery.deliverRun("run-1", "agent:main:main", okRun);
    const speaking = deliveryOn(ledgerFile(), posted, fakeSpeech());
    speaking.ledger.expect("run-2", CHAT, { runId: "run-2" });
    await speaking.delivery.deliverRun("run-2", "agent:main:main", { status: "error", result: { error: { message: "the model failed" } } } as never);
    await settled(ledger);
    await settled(speaking.ledger);
    expect(ledger.get(speechIdOf("run-1"))).toBeUndefined();
    expect(speaking.ledger.get(speechIdOf("run-2"))).toBeUndefined();
  });
});
