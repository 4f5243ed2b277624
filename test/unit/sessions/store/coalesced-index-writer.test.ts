import { describe, expect, it } from "vitest";
import { CoalescedIndexWriter } from "../../../../src/sessions/store/coalesced-index-writer.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("CoalescedIndexWriter", () => {
  it("a background write that fails after dispose schedules no retry; flushNow still writes what is pending", async () => {
    const backgroundWrites: string[] = [];
    const syncWrites: string[] = [];
    const errors: string[] = [];
    let failWrite!: (err: Error) => void;
    const writer = new CoalescedIndexWriter(
      1,
      (agentId) => syncWrites.push(agentId),
      (agentId) => {
        backgroundWrites.push(agentId);
        return new Promise<void>((_resolve, reject) => {
          failWrite = reject;
        });
      },
      (agentId, err) => errors.push(`${agentId}: ${(err as Error).message}`),
    );
    writer.markDirty("main");
    await expect.poll(() => backgroundWrites).toEqual(["main"]);
    writer.dispose();
    failWrite(new Error("disk full"));
    const gaveUp = sleep(2000).then(() => "settled() still waiting: a write was scheduled after dispose");
    expect(await Promise.race([writer.settled().then(() => "settled"), gaveUp])).toBe("settled");
    await sleep(20);
    expect(errors).toEqual(["main: disk full"]);
    expect(backgroundWrites).toEqual(["main"]);
    writer.markDirty("other");
    await sleep(20);
    expect(backgroundWrites).toEqual(["main"]);
    writer.flushNow();
    expect(syncWrites.sort()).toEqual(["main", "other"]);
  });

  it("before dispose, a failed background write is retried by the next background write", async () => {
    let calls = 0;
    const writer = new CoalescedIndexWriter(
      1,
      () => {},
      () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error("busy")) : Promise.resolve();
      },
      () => {},
    );
    writer.markDirty("main");
    await expect.poll(() => calls).toBe(2);
    await writer.settled();
    writer.dispose();
  });
});
