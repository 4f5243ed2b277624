import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DeliveryLedger, type DeliveryLedgerOptions, type DeliveryTarget } from "../../../../src/channels/outbound/delivery-ledger.js";

const ledgers: DeliveryLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "delivery-")), "channels", "deliveries.jsonl");
}

function open(file: string, options: DeliveryLedgerOptions = {}): DeliveryLedger {
  const ledger = DeliveryLedger.open(file, options);
  ledgers.push(ledger);
  return ledger;
}

const TARGET: DeliveryTarget = { channel: "telegram", accountId: "default", chatId: "123", threadId: "7", replyToMessageId: "456" };
const HOUR = 60 * 60_000;
const fileLines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("DeliveryLedger", () => {
  it("expect → recordReply → markSent per chunk → finish; a reopen owes nothing", async () => {
    const file = tempFile();
    const ledger = open(file, { now: () => 1_000 });
    const expected = ledger.expect("run-1", TARGET, { sessionKey: "agent:main:main", runId: "run-1" });
    expect(expected).toEqual({ id: "run-1", target: TARGET, sessionKey: "agent:main:main", runId: "run-1", createdAt: 1_000, sent: {}, attempts: 0, state: "awaiting-reply" });
    expect(ledger.recordReply("run-1", ["part one", "part two"]).state).toBe("pending");
    ledger.markSent("run-1", 0, "m-1");
    ledger.markSent("run-1", 1, "m-2");
    ledger.finish("run-1", "delivered");
    expect(ledger.get("run-1")).toMatchObject({ state: "delivered", sent: { 0: "m-1", 1: "m-2" } });
    expect(ledger.unfinished()).toEqual([]);
    await ledger.whenDurable();
    ledger.close();

    const reopened = open(file, { now: () => 2_000 });
    expect(reopened.unfinished()).toEqual([]);
    expect(reopened.get("run-1")).toBeUndefined();
  });

  it("after a crash mid-reply, the entry is pending with the chunks already sent", () => {
    const file = tempFile();
    const ledger = open(file, { now: () => 1_000 });
    ledger.expect("run-1", TARGET);
    ledger.recordReply("run-1", ["a", "b", "c"]);
    ledger.markSent("run-1", 0, "m-1");
    // No close: a crash leaves the file as appended.

    const [entry] = open(file, { now: () => 2_000 }).unfinished();
    expect(entry).toMatchObject({ id: "run-1", state: "pending", chunks: ["a", "b", "c"], sent: { 0: "m-1" }, target: TARGET });
    const toResend = entry!.chunks!.map((_, index) => index).filter((index) => entry!.sent[index] === undefined);
    expect(toResend).toEqual([1, 2]);
  });

  it("lists entries still awaiting their reply, oldest first", () => {
    let now = 1_000;
    const ledger = open(tempFile(), { now: () => now });
    ledger.expect("late", TARGET);
    now = 500;
    ledger.expect("early", { ...TARGET, chatId: "9" });
    expect(ledger.unfinished().map((e) => [e.id, e.state])).toEqual([
      ["early", "awaiting-reply"],
      ["late", "awaiting-reply"],
    ]);
  });

  it("is idempotent: a second expect returns the first entry, a second recordReply keeps the first chunks", () => {
    const ledger = open(tempFile());
    const first = ledger.expect("run-1", TARGET, { runId: "run-1" });
    expect(ledger.expect("run-1", { ...TARGET, chatId: "other" })).toEqual(first);
    ledger.recordReply("run-1", ["first"]);
    expect(ledger.recordReply("run-1", ["second", "reply"]).chunks).toEqual(["first"]);
    ledger.markSent("run-1", 0, "m-1");
    ledger.markSent("run-1", 0, "m-duplicate");
    expect(ledger.get("run-1")!.sent).toEqual({ 0: "m-1" });
  });

  it("counts failed attempts and gives up at maxAttempts, also across a reopen", () => {
    const file = tempFile();
    const ledger = open(file, { maxAttempts: 3 });
    ledger.expect("run-1", TARGET);
    ledger.recordReply("run-1", ["hi"]);
    expect(ledger.markAttemptFailed("run-1", "ETIMEDOUT")).toMatchObject({ attempts: 1, state: "pending", lastError: "ETIMEDOUT" });
    ledger.markAttemptFailed("run-1", "ECONNRESET");
    ledger.close();

    const reopened = open(file, { maxAttempts: 3 });
    expect(reopened.unfinished()[0]).toMatchObject({ attempts: 2, lastError: "ECONNRESET" });
    expect(reopened.markAttemptFailed("run-1", "502")).toMatchObject({ attempts: 3, state: "failed" });
    expect(reopened.unfinished()).toEqual([]);
    expect(reopened.markAttemptFailed("run-1", "again").attempts).toBe(3);
  });

  it("reopens a failed entry asked for again: pending with fresh attempts and its sent chunks kept, also after a restart", async () => {
    const file = tempFile();
    let now = 1_000;
    const ledger = open(file, { maxAttempts: 1, now: () => now });
    ledger.expect("send:k", TARGET);
    ledger.recordReply("send:k", ["one", "two"]);
    ledger.markSent("send:k", 0, "m-1");
    ledger.finish("send:k", "failed", "500");
    now = 5_000;
    expect(ledger.reopen("send:k")).toBe(true);
    expect(ledger.get("send:k")).toMatchObject({ state: "pending", attempts: 0, sent: { 0: "m-1" } });
    ledger.expect("other", TARGET);
    expect(ledger.reopen("other")).toBe(false);
    await ledger.whenDurable();
    ledger.close();

    const restarted = open(file, { maxAttempts: 1, now: () => now });
    expect(restarted.get("send:k")).toMatchObject({ state: "pending", attempts: 0, sent: { 0: "m-1" }, createdAt: 5_000 });
  });

  it("does not return entries older than 24 hours", () => {
    const file = tempFile();
    let now = 0;
    const ledger = open(file, { now: () => now });
    ledger.expect("old", TARGET);
    now = 2 * HOUR;
    ledger.expect("fresh", TARGET);
    now = 24 * HOUR;
    expect(ledger.unfinished().map((e) => e.id)).toEqual(["old", "fresh"]);
    now = 24 * HOUR + 1;
    expect(ledger.unfinished().map((e) => e.id)).toEqual(["fresh"]);
    ledger.close();
    expect(open(file, { now: () => now }).get("old")).toBeUndefined();
  });

  it("skips a torn last line and keeps appending cleanly after it", () => {
    const file = tempFile();
    const ledger = open(file);
    ledger.expect("run-1", TARGET);
    ledger.recordReply("run-1", ["a", "b"]);
    ledger.close();
    fs.appendFileSync(file, '{"op":"sent","id":"run-1","ind');

    const reopened = open(file);
    expect(reopened.get("run-1")).toMatchObject({ state: "pending", sent: {} });
    reopened.markSent("run-1", 0, "m-1");
    reopened.close();
    expect(open(file).get("run-1")!.sent).toEqual({ 0: "m-1" });
  });

  it("compaction at open drops finished entries and keeps the owed ones as one line each", () => {
    const file = tempFile();
    const ledger = open(file);
    for (const id of ["delivered", "failed", "suppressed", "owed"]) {
      ledger.expect(id, TARGET);
      ledger.recordReply(id, ["x", "y"]);
      ledger.markSent(id, 0, `m-${id}`);
    }
    ledger.finish("delivered", "delivered");
    ledger.finish("failed", "failed", "chat not found");
    ledger.finish("suppressed", "suppressed", "NO_REPLY");
    expect(ledger.get("failed")).toMatchObject({ state: "failed", reason: "chat not found" });
    ledger.finish("failed", "delivered");
    expect(ledger.get("failed")!.state).toBe("failed");
    ledger.close();

    const reopened = open(file);
    expect(fileLines(file)).toHaveLength(1);
    expect(reopened.unfinished().map((e) => e.id)).toEqual(["owed"]);
    expect(reopened.get("owed")).toMatchObject({ chunks: ["x", "y"], sent: { 0: "m-owed" } });
  });

  it("compacts a long-running ledger once the file far outgrows the owed entries", () => {
    const file = tempFile();
    const ledger = open(file);
    for (let i = 0; i < 1_100; i += 1) {
      ledger.expect(`run-${i}`, TARGET);
      ledger.recordReply(`run-${i}`, ["x"]);
      ledger.markSent(`run-${i}`, 0, "m");
      if (i !== 3) ledger.finish(`run-${i}`, "delivered");
    }
    expect(fileLines(file).length).toBeLessThan(4_000);
    expect(ledger.unfinished().map((e) => e.id)).toEqual(["run-3"]);
    ledger.close();
    expect(
      open(file)
        .unfinished()
        .map((e) => e.id),
    ).toEqual(["run-3"]);
  });

  it("keeps two ledgers apart", () => {
    const a = open(tempFile());
    const b = open(tempFile());
    a.expect("same-id", TARGET);
    expect(b.get("same-id")).toBeUndefined();
    expect(b.unfinished()).toEqual([]);
    b.expect("same-id", { ...TARGET, chatId: "other" });
    expect(a.get("same-id")!.target.chatId).toBe("123");
  });

  it("accepts ids and texts with odd characters", () => {
    const file = tempFile();
    const ledger = open(file);
    const id = 'send:"quoted"\n\\back\u2028 😀 {"op":"entry"}';
    ledger.expect(id, TARGET);
    ledger.recordReply(id, ["line\nbreak", "emoji 😀 and \u0000 nul"]);
    ledger.close();
    expect(open(file).get(id)).toMatchObject({ id, chunks: ["line\nbreak", "emoji 😀 and \u0000 nul"] });
  });

  it("hands out copies: changing a returned entry changes nothing inside", () => {
    const ledger = open(tempFile());
    ledger.expect("run-1", TARGET);
    const entry = ledger.recordReply("run-1", ["a"]);
    entry.chunks!.push("b");
    entry.sent[0] = "forged";
    entry.target.chatId = "elsewhere";
    expect(ledger.get("run-1")).toMatchObject({ chunks: ["a"], sent: {}, target: { chatId: "123" } });
  });

  it("rejects misuse with clear errors", () => {
    const ledger = open(tempFile());
    expect(() => ledger.recordReply("unknown", ["a"])).toThrow(/no delivery entry "unknown"/);
    ledger.expect("run-1", TARGET);
    expect(() => ledger.markSent("run-1", 0, "m")).toThrow(/no reply recorded/);
    expect(() => ledger.recordReply("run-1", [])).toThrow(/non-empty array/);
    ledger.recordReply("run-1", ["a"]);
    expect(() => ledger.markSent("run-1", 1, "m")).toThrow(/outside 0..0/);
    expect(() => ledger.expect("", TARGET)).toThrow(/non-empty/);
    expect(() => ledger.expect("x", { channel: "telegram" } as DeliveryTarget)).toThrow(/chatId/);
  });
});
