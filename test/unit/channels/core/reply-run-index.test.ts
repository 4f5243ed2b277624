import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ratingOfEmoji } from "../../../../src/channels/dispatch/reaction-feedback.js";
import { DeliveryLedger } from "../../../../src/channels/outbound/delivery-ledger.js";
import { ReplyRunIndex } from "../../../../src/channels/outbound/reply-run-index.js";

const DAY = 24 * 60 * 60_000;
const TARGET = { channel: "slack", accountId: "default", chatId: "C1" };

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "reply-runs-"));
}

describe("ReplyRunIndex", () => {
  it("links each chunk a run's reply went out as, and keeps the links after the ledger forgot the finished entry", () => {
    const dir = tempDir();
    const open = () => DeliveryLedger.open(path.join(dir, "ledger.jsonl"), { replyRuns: ReplyRunIndex.open(path.join(dir, "runs.jsonl")) });
    const ledger = open();
    ledger.expect("run-1", TARGET, { runId: "run-1" });
    ledger.recordReply("run-1", ["a", "b"]);
    ledger.markSent("run-1", 0, "100.1");
    ledger.markSent("run-1", 1, "100.2");
    ledger.finish("run-1", "delivered");
    // A text no run wrote (a command's answer) is linked to nothing.
    ledger.expect("cmd:1", TARGET);
    ledger.recordReply("cmd:1", ["ok"]);
    ledger.markSent("cmd:1", 0, "100.3");
    ledger.close();

    const reopened = open();
    expect(reopened.get("run-1")).toBeUndefined();
    expect(reopened.runOfSentMessage({ ...TARGET, messageId: "100.1" })).toBe("run-1");
    expect(reopened.runOfSentMessage({ ...TARGET, messageId: "100.2" })).toBe("run-1");
    expect(reopened.runOfSentMessage({ ...TARGET, messageId: "100.3" })).toBeUndefined();
    // The same id in another chat is another message.
    expect(reopened.runOfSentMessage({ ...TARGET, chatId: "C2", messageId: "100.1" })).toBeUndefined();
    reopened.close();
  });

  it("drops links past their age and the oldest past the cap when it compacts", () => {
    const dir = tempDir();
    let now = 0;
    const file = path.join(dir, "runs.jsonl");
    const index = ReplyRunIndex.open(file, { now: () => now, maxAgeMs: 30 * DAY, maxEntries: 2 });
    index.record({ ...TARGET, messageId: "1" }, "old");
    now = 20 * DAY;
    index.record({ ...TARGET, messageId: "2" }, "mid");
    index.record({ ...TARGET, messageId: "3" }, "new");
    index.record({ ...TARGET, messageId: "3" }, "other");
    index.close();
    now = 40 * DAY;
    const reopened = ReplyRunIndex.open(file, { now: () => now, maxAgeMs: 30 * DAY, maxEntries: 2 });
    expect(reopened.runOf({ ...TARGET, messageId: "1" })).toBeUndefined();
    expect(reopened.runOf({ ...TARGET, messageId: "2" })).toBe("mid");
    expect(reopened.runOf({ ...TARGET, messageId: "3" })).toBe("new");
    reopened.close();
    const capped = ReplyRunIndex.open(file, { now: () => now, maxAgeMs: 30 * DAY, maxEntries: 1 });
    expect(capped.runOf({ ...TARGET, messageId: "2" })).toBeUndefined();
    expect(capped.runOf({ ...TARGET, messageId: "3" })).toBe("new");
    capped.close();
  });
});

describe("ratingOfEmoji", () => {
  it("reads thumbs up and down on every platform, skin tones included, and nothing else", () => {
    for (const up of ["👍", "👍🏽", "+1", "thumbsup", "+1::skin-tone-3"]) expect(ratingOfEmoji(up)).toBe("up");
    for (const down of ["👎", "👎🏿", "-1", "thumbsdown", "thumbsdown::skin-tone-6"]) expect(ratingOfEmoji(down)).toBe("down");
    for (const other of ["🔥", "heart", "❤", "thumbs"]) expect(ratingOfEmoji(other)).toBeUndefined();
  });
});
