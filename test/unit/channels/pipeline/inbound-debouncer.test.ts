import { describe, expect, it } from "vitest";
import { InboundDebouncer } from "../../../../src/channels/dispatch/inbound-debouncer.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("InboundDebouncer (messages.inbound.debounceMs)", () => {
  it("merges a burst from one sender into one flush after the quiet window, and resolves every add only then", async () => {
    const flushed: string[][] = [];
    const debouncer = new InboundDebouncer<string>(async (items) => {
      flushed.push(items);
    });
    let firstSettled = false;
    const first = debouncer.add("chat|ann", "one", 80).then(() => (firstSettled = true));
    await sleep(40);
    const second = debouncer.add("chat|ann", "two", 80);
    const other = debouncer.add("chat|bob", "hers", 80);
    await sleep(60);
    expect(firstSettled).toBe(false);
    await Promise.all([first, second, other]);
    expect(flushed).toEqual([["one", "two"], ["hers"]]);
  });

  it("a failed flush rejects every message of the batch (the adapter must not commit them)", async () => {
    const debouncer = new InboundDebouncer<string>(async () => {
      throw new Error("disk full");
    });
    const results = await Promise.allSettled([debouncer.add("k", "a", 10), debouncer.add("k", "b", 10)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
