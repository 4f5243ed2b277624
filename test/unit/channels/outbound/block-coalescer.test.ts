import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BlockCoalescer } from "../../../../src/channels/outbound/block-coalescer.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function coalescer(minChars: number, maxChars: number, idleMs = 1000) {
  const sent: string[] = [];
  return { sent, merger: new BlockCoalescer({ minChars, maxChars, idleMs, joiner: "\n\n" }, (text) => sent.push(text)) };
}

describe("BlockCoalescer", () => {
  it("merges blocks that come faster than idleMs and sends them once the model pauses", () => {
    const { sent, merger } = coalescer(5, 100);
    merger.add("first block");
    vi.advanceTimersByTime(500);
    merger.add("second block");
    vi.advanceTimersByTime(999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["first block\n\nsecond block"]);
  });

  it("holds less than minChars until flush, however long the pause", () => {
    const { sent, merger } = coalescer(50, 100);
    merger.add("short");
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
    merger.flush();
    expect(sent).toEqual(["short"]);
  });

  it("starts a new message when the next block would pass maxChars", () => {
    const { sent, merger } = coalescer(1, 30);
    merger.add("a".repeat(20));
    merger.add("b".repeat(20));
    expect(sent).toEqual(["a".repeat(20)]);
    merger.flush();
    expect(sent).toEqual(["a".repeat(20), "b".repeat(20)]);
  });

  it("sends at once with idleMs 0", () => {
    const { sent, merger } = coalescer(1, 100, 0);
    merger.add("now");
    expect(sent).toEqual(["now"]);
  });
});
