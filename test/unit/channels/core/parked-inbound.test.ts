import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ParkedInbound } from "../../../../src/channels/inbound/parked-inbound.js";
import type { InboundMessage } from "../../../../src/channels/types.js";

const stores: ParkedInbound[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function tempFile(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "parked-")), "channels");
  fs.mkdirSync(dir);
  return path.join(dir, "debounce-parked.jsonl");
}

function open(file: string): ParkedInbound {
  const store = ParkedInbound.open(file);
  stores.push(store);
  return store;
}

const message = (messageId: string, text: string): InboundMessage => ({ messageId, chatType: "direct", chatId: "7", senderId: "7", text, timestamp: 1 });

describe("ParkedInbound", () => {
  it("keeps what is parked across a reopen, per account and in parking order, until it is released", async () => {
    const file = tempFile();
    const store = open(file);
    await store.park("k1", { channel: "telegram", accountId: "default", message: message("1", "one") });
    await store.park("other", { channel: "telegram", accountId: "work", message: message("9", "elsewhere") });
    await store.park("k2", { channel: "telegram", accountId: "default", message: message("2", "two") });
    store.close();
    stores.splice(0);

    const reopened = open(file);
    expect(reopened.parkedFor("telegram", "default")).toEqual([
      { key: "k1", message: message("1", "one") },
      { key: "k2", message: message("2", "two") },
    ]);
    reopened.release(["k1", "k2", "never-parked"]);
    reopened.close();
    stores.splice(0);

    const again = open(file);
    expect(again.parkedFor("telegram", "default")).toEqual([]);
    expect(again.parkedFor("telegram", "work").map((p) => p.key)).toEqual(["other"]);
  });

  it("skips a line torn by a crash and keeps the others", async () => {
    const file = tempFile();
    const store = open(file);
    await store.park("k1", { channel: "telegram", accountId: "default", message: message("1", "one") });
    store.close();
    stores.splice(0);
    fs.appendFileSync(file, '{"k":"k2","channel":"tele');
    expect(
      open(file)
        .parkedFor("telegram", "default")
        .map((p) => p.key),
    ).toEqual(["k1"]);
  });

  it("parks only messages without files (a file is fetched through the platform, not stored)", () => {
    expect(ParkedInbound.canPark(message("1", "text"))).toBe(true);
    const withPhoto = { ...message("2", ""), media: [{ kind: "image" as const, download: async () => Buffer.alloc(0) }] };
    expect(ParkedInbound.canPark(withPhoto)).toBe(false);
  });
});
