import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionInbox, type InboundMessage, type InboxNotice, type SessionInboxOptions } from "../../../../src/sessions/lanes/index.js";

let clock = 0;
function msg(id: string, text = `text ${id}`): InboundMessage {
  clock += 1;
  return { id, text, receivedAt: clock };
}

function inbox(options: Partial<SessionInboxOptions> & Pick<SessionInboxOptions, "mode">) {
  const notices: InboxNotice[] = [];
  const box = createSessionInbox({ notify: (n) => notices.push(n), ...options });
  return { box, notices };
}

const ids = (messages: InboundMessage[] | undefined) => messages?.map((m) => m.id);

describe("inbox: steer", () => {
  it("buffers messages for the active run, which takes them all at its next model boundary", () => {
    const { box } = inbox({ mode: "steer" });
    expect(box.offer(msg("a"))).toEqual({ action: "steered", position: 1 });
    expect(box.offer(msg("b"))).toEqual({ action: "steered", position: 2 });
    expect(box.pendingCount()).toBe(2);
    expect(ids(box.takeSteering())).toEqual(["a", "b"]);
    expect(box.takeSteering()).toEqual([]);
    expect(box.pendingCount()).toBe(0);
    expect(box.nextTurn()).toBeUndefined();
  });

  it("steering the run never took becomes followup turns, one per message, in order", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    box.offer(msg("b"));
    box.runEnded();
    expect(box.takeSteering()).toEqual([]); // no longer for any run
    expect(box.pendingCount()).toBe(2);
    const first = box.nextTurn();
    expect(ids(first?.messages)).toEqual(["a"]);
    expect(first?.mergedText).toBe("text a");
    expect(ids(box.nextTurn()?.messages)).toEqual(["b"]);
    expect(box.nextTurn()).toBeUndefined();
  });

  it("nextTurn() carries leftovers over by itself when the caller skips runEnded()", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);
    expect(box.pendingCount()).toBe(0);
  });

  it("while carried-over followups wait, new messages queue behind them instead of jumping ahead", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    box.offer(msg("b"));
    box.runEnded();
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]); // run for "a" starts; "b" still waits
    expect(box.offer(msg("c"))).toEqual({ action: "queued", position: 2 });
    expect(box.takeSteering()).toEqual([]); // "c" must not overtake "b"
    expect(ids(box.nextTurn()?.messages)).toEqual(["b"]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["c"]);
    expect(box.offer(msg("d"))).toEqual({ action: "steered", position: 1 }); // backlog gone: steer again
  });

  it("whenReady resolves on carry-over, not on steering (the active run owns that)", async () => {
    const { box } = inbox({ mode: "steer" });
    let ready = false;
    const waiting = box.whenReady().then(() => (ready = true));
    box.offer(msg("a"));
    await Promise.resolve();
    expect(ready).toBe(false);
    box.runEnded();
    await waiting;
    expect(ready).toBe(true);
  });
});

describe("inbox: followup", () => {
  it("makes every message its own later turn, oldest first", async () => {
    const { box } = inbox({ mode: "followup" });
    expect(box.offer(msg("a", "first"))).toEqual({ action: "queued", position: 1 });
    expect(box.offer(msg("b", "second"))).toEqual({ action: "queued", position: 2 });
    expect(box.takeSteering()).toEqual([]);
    await box.whenReady();
    expect(box.nextTurn()).toMatchObject({ messages: [expect.objectContaining({ id: "a" })], mergedText: "first" });
    expect(box.nextTurn()).toMatchObject({ messages: [expect.objectContaining({ id: "b" })], mergedText: "second" });
    expect(box.nextTurn()).toBeUndefined();
  });

  it("keeps meta on the messages it hands back", () => {
    const { box } = inbox({ mode: "followup" });
    box.offer({ id: "a", text: "hi", receivedAt: 1, meta: { channel: "telegram" } });
    expect(box.nextTurn()?.messages[0]?.meta).toEqual({ channel: "telegram" });
  });
});

describe("inbox: collect", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("merges messages into one turn after a quiet window; each message restarts the window", async () => {
    const { box } = inbox({ mode: "collect", debounceMs: 500 });
    expect(box.offer(msg("a", "first"))).toEqual({ action: "queued", position: 1 });
    vi.advanceTimersByTime(400);
    expect(box.nextTurn()).toBeUndefined(); // still inside the window
    box.offer(msg("b", "second"));
    vi.advanceTimersByTime(400);
    expect(box.nextTurn()).toBeUndefined(); // "b" restarted it
    box.offer(msg("c", "third"));
    let ready = false;
    const waiting = box.whenReady().then(() => (ready = true));
    vi.advanceTimersByTime(499);
    await Promise.resolve();
    expect(ready).toBe(false);
    vi.advanceTimersByTime(1);
    await waiting;
    const turn = box.nextTurn();
    expect(ids(turn?.messages)).toEqual(["a", "b", "c"]);
    expect(turn?.mergedText).toBe("first\n\nsecond\n\nthird");
    expect(box.pendingCount()).toBe(0);
    expect(box.nextTurn()).toBeUndefined();
  });

  it("a message arriving after the batch was ready but before it was taken reopens the window", () => {
    const { box } = inbox({ mode: "collect", debounceMs: 100 });
    box.offer(msg("a"));
    vi.advanceTimersByTime(100);
    box.offer(msg("b"));
    expect(box.nextTurn()).toBeUndefined();
    vi.advanceTimersByTime(100);
    expect(ids(box.nextTurn()?.messages)).toEqual(["a", "b"]);
  });

  it("defaults to a 500 ms window", () => {
    const { box } = inbox({ mode: "collect" });
    box.offer(msg("a"));
    vi.advanceTimersByTime(499);
    expect(box.nextTurn()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);
  });

  it("debounceMs 0 makes the batch ready at once", async () => {
    const { box } = inbox({ mode: "collect", debounceMs: 0 });
    box.offer(msg("a"));
    box.offer(msg("b"));
    await box.whenReady();
    expect(ids(box.nextTurn()?.messages)).toEqual(["a", "b"]);
  });

  it("clear() stops the window and returns what was waiting", () => {
    const { box } = inbox({ mode: "collect", debounceMs: 100 });
    box.offer(msg("a"));
    box.offer(msg("b"));
    const cleared = box.clear();
    expect(ids(cleared.messages)).toEqual(["a", "b"]);
    expect(cleared.summaries).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(box.pendingCount()).toBe(0);
    expect(box.nextTurn()).toBeUndefined();
  });
});

describe("inbox: interrupt", () => {
  it("tells the caller to interrupt, and the newest message becomes the next turn", () => {
    const { box } = inbox({ mode: "interrupt" });
    expect(box.offer(msg("a", "actually, stop that"))).toEqual({ action: "interrupt", position: 1 });
    const turn = box.nextTurn();
    expect(ids(turn?.messages)).toEqual(["a"]);
    expect(turn?.mergedText).toBe("actually, stop that");
  });

  it("older waiting messages are merged into that turn, labelled, with the newest last", () => {
    const { box, notices } = inbox({ mode: "interrupt" });
    box.offer(msg("a", "use python"));
    expect(box.offer(msg("b", "no wait, use rust"))).toEqual({ action: "interrupt", position: 2 });
    const turn = box.nextTurn();
    expect(ids(turn?.messages)).toEqual(["a", "b"]);
    expect(turn?.mergedText).toBe("[Earlier messages, sent before the interrupt]\nuse python\n\n[Latest message]\nno wait, use rust");
    expect(notices).toEqual([]); // nothing was dropped
    expect(box.nextTurn()).toBeUndefined();
  });
});

describe("inbox: pendingCount and clear", () => {
  it("counts steering and queued messages, and clear returns both", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    box.runEnded();
    box.nextTurn(); // "a" runs
    box.offer(msg("b")); // steered into a's run
    expect(box.pendingCount()).toBe(1);
    const cleared = box.clear();
    expect(ids(cleared.messages)).toEqual(["b"]);
    expect(box.pendingCount()).toBe(0);
    expect(box.takeSteering()).toEqual([]);
  });
});

describe("inbox: reconfigure (a reload of messages.queue)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("leaving steer: what was steered waits as followups, ahead of what comes next", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    box.reconfigure({ mode: "followup" });
    expect(box.takeSteering()).toEqual([]);
    expect(box.offer(msg("b"))).toEqual({ action: "queued", position: 2 });
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["b"]);
  });

  it("a lower cap keeps what waits and applies to the next message", () => {
    const { box, notices } = inbox({ mode: "followup" });
    box.offer(msg("a"));
    box.offer(msg("b"));
    box.reconfigure({ mode: "followup", cap: 1, drop: "new" });
    expect(box.pendingCount()).toBe(2);
    expect(box.offer(msg("c")).action).toBe("rejected");
    expect(notices.map((n) => n.messageIds)).toEqual([["c"]]);
  });

  it("leaving collect releases a batch that waited for quiet; entering it waits for the new window", async () => {
    const { box } = inbox({ mode: "collect", debounceMs: 10_000 });
    box.offer(msg("a"));
    const ready = box.whenReady();
    box.reconfigure({ mode: "followup" });
    await ready;
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);

    box.reconfigure({ mode: "collect", debounceMs: 50 });
    box.offer(msg("b"));
    box.offer(msg("c"));
    expect(box.nextTurn()).toBeUndefined();
    vi.advanceTimersByTime(50);
    expect(ids(box.nextTurn()?.messages)).toEqual(["b", "c"]);
  });
});
