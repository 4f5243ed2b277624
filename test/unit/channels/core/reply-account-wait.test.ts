import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { DeliveryLedger, type DeliveryTarget } from "../../../../src/channels/outbound/delivery-ledger.js";
import { ReplyDelivery } from "../../../../src/channels/outbound/reply-delivery.js";

const ledgers: DeliveryLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

const CHAT: DeliveryTarget = { channel: "telegram", accountId: "default", chatId: "42" };

describe("a reply whose account stays down", () => {
  it("is given up at the wait limit with a reason naming the account, without counting failed attempts", async () => {
    const ledger = DeliveryLedger.open(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "account-wait-")), "delivery-ledger.jsonl"));
    ledgers.push(ledger);
    const delivery = new ReplyDelivery({
      ledger,
      logger: pino({ level: "silent" }),
      account: () => ({ state: "down", limits: { textChunkLimit: 4000 } }),
      accountWaitMs: 1_000,
    });
    const entry = await delivery.deliverText("r1", CHAT, "hello");
    await delivery.close();
    expect(entry).toMatchObject({ state: "failed", attempts: 0 });
    expect(entry?.reason).toBe("channel telegram account default did not run again within 1 s; check openclaw channels status for its last error; the reply was not sent");
  });
});
