import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import pino from "pino";
import { AnnounceQueue, type DeliveryResult } from "../../../src/agents/subagents/announce-queue.js";
import { SubagentRegistry } from "../../../src/agents/subagents/subagent-registry.js";
import type { SubagentRunRecord } from "../../../src/agents/subagents/types.js";
import { makeRecord, tempStateDir } from "./helpers.js";

const logger = pino({ level: "silent" });

function pending(dueInMs: number): SubagentRunRecord {
  const now = Date.now();
  return makeRecord({
    roundOpen: false,
    endedAt: now,
    announce: { round: 1, key: "announce:r:1", state: "pending", targetSessionKey: "agent:main:main", attempts: 0, createdAt: now, dueBy: now + dueInMs },
  });
}

function queueWith(deliver: (record: SubagentRunRecord) => Promise<DeliveryResult>) {
  const registry = new SubagentRegistry(tempStateDir());
  const accepted: string[] = [];
  const gaveUp: string[] = [];
  const queue = new AnnounceQueue({ registry, deliver, logger, onAccepted: (r) => accepted.push(r.runId), onGaveUp: (r) => gaveUp.push(r.runId) });
  return { registry, queue, accepted, gaveUp };
}

beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "setImmediate"] }));
afterEach(() => vi.useRealTimers());

describe("AnnounceQueue", () => {
  it("retries a transient failure after 5, 10 and 20 s, then every 20 s", async () => {
    const attempts: number[] = [];
    const start = Date.now();
    const { queue, accepted } = queueWith(async () => {
      attempts.push(Date.now() - start);
      return attempts.length < 6 ? { kind: "transient", error: "disk busy" } : { kind: "accepted", previous: "ok" };
    });
    const record = pending(30 * 60_000);
    queue.schedule(record);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(attempts).toEqual([0, 5_000, 15_000, 35_000, 55_000, 75_000]);
    expect(accepted).toEqual([record.runId]);
    expect(record.announce).toMatchObject({ state: "accepted", attempts: 6 });
    expect(record.announce!.lastError).toBeUndefined();
  });

  it("does not retry a permanent failure", async () => {
    let calls = 0;
    const { queue, gaveUp } = queueWith(async () => {
      calls += 1;
      return { kind: "permanent", error: "the requester session no longer exists" };
    });
    const record = pending(30 * 60_000);
    queue.schedule(record);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
    expect(record.announce).toMatchObject({ state: "failed", lastError: "the requester session no longer exists" });
    expect(gaveUp).toEqual([record.runId]);
  });

  it("gives up at the deadline (5 min soft expiry) instead of retrying past it", async () => {
    let calls = 0;
    const { queue, gaveUp } = queueWith(async () => {
      calls += 1;
      return { kind: "transient", error: "still busy" };
    });
    const record = pending(5 * 60_000);
    queue.schedule(record);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(record.announce!.state).toBe("expired");
    expect(gaveUp).toEqual([record.runId]);
    // 0, 5, 15, 35 s, then every 20 s while the next try still falls before the deadline.
    expect(calls).toBe(17);
  });

  it("stop() leaves pending announcements pending for the next start", async () => {
    let calls = 0;
    const { queue } = queueWith(async () => {
      calls += 1;
      return { kind: "transient", error: "x" };
    });
    const record = pending(30 * 60_000);
    queue.schedule(record);
    await vi.advanceTimersByTimeAsync(1);
    queue.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
    expect(record.announce!.state).toBe("pending");
  });
});
