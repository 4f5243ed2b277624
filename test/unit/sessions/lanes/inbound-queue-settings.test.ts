import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionInbox, sameTurnSettings, type InboundMessage, type InboxNotice, type SessionInboxOptions } from "../../../../src/sessions/lanes/index.js";

/**
 * A message's own turn settings travel with it through the inbox, and messages share a turn only
 * when their settings are equal: one is steered into the running turn only when its settings are
 * the running turn's, and `collect` / `interrupt` merge only runs of equal settings, in arrival order.
 */

interface Settings {
  thinkingLevel?: string;
  runToolDeny?: { source: string; entries: string[] };
}

let clock = 0;
function msg(id: string, turnSettings?: Settings): InboundMessage<Settings> {
  clock += 1;
  return { id, text: id, receivedAt: clock, ...(turnSettings ? { meta: { turnSettings } } : {}) };
}

function inbox(options: Partial<SessionInboxOptions> & Pick<SessionInboxOptions, "mode">) {
  const notices: InboxNotice[] = [];
  const box = createSessionInbox<Settings>({ notify: (n) => notices.push(n), ...options });
  return { box, notices };
}

const HIGH: Settings = { thinkingLevel: "high" };
const ids = (messages: InboundMessage<Settings>[] | undefined) => messages?.map((m) => m.id);
const settingsOf = (messages: InboundMessage<Settings>[] | undefined) => messages?.map((m) => m.meta?.turnSettings);

describe("sameTurnSettings", () => {
  it("is true for none and none, and for equal plain data; false otherwise", () => {
    expect(sameTurnSettings(undefined, undefined)).toBe(true);
    expect(sameTurnSettings({ thinkingLevel: "high" }, { thinkingLevel: "high" })).toBe(true);
    expect(sameTurnSettings({ runToolDeny: { source: "s", entries: ["message"] } }, { runToolDeny: { source: "s", entries: ["message"] } })).toBe(true);
    expect(sameTurnSettings({ thinkingLevel: "high" }, undefined)).toBe(false);
    expect(sameTurnSettings(undefined, { thinkingLevel: "high" })).toBe(false);
    expect(sameTurnSettings({ thinkingLevel: "high" }, { thinkingLevel: "low" })).toBe(false);
  });
});

describe("inbox: steer with turn settings", () => {
  it("a message with settings is not steered into a running turn without them: it waits as a followup with its settings", () => {
    const { box } = inbox({ mode: "steer" });
    expect(box.offer(msg("a", HIGH))).toEqual({ action: "queued", position: 1 });
    expect(box.takeSteering()).toEqual([]);
    const turn = box.nextTurn();
    expect(ids(turn?.messages)).toEqual(["a"]);
    expect(settingsOf(turn?.messages)).toEqual([HIGH]);
  });

  it("a message without settings is not steered into a running turn that has its own", () => {
    const { box } = inbox({ mode: "steer" });
    expect(box.offer(msg("a"), HIGH)).toEqual({ action: "queued", position: 1 });
    expect(box.takeSteering()).toEqual([]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);
  });

  it("a message whose settings equal the running turn's is steered into it", () => {
    const { box } = inbox({ mode: "steer" });
    expect(box.offer(msg("a", { thinkingLevel: "high" }), { thinkingLevel: "high" })).toEqual({ action: "steered", position: 1 });
    expect(ids(box.takeSteering())).toEqual(["a"]);
  });

  it("steered messages stay ahead of a settings message queued after them, and later ones queue behind it", () => {
    const { box, notices } = inbox({ mode: "steer", cap: 3, drop: "old" });
    expect(box.offer(msg("a")).action).toBe("steered");
    expect(box.offer(msg("b", HIGH)).action).toBe("queued");
    // Anything after a waiting followup queues behind it, so nothing overtakes "b".
    expect(box.offer(msg("c"))).toEqual({ action: "queued", position: 2 });
    expect(box.pendingCount()).toBe(3);
    // Full: the oldest waiting message is the steered one.
    box.offer(msg("d"));
    expect(notices.map((n) => n.messageIds)).toEqual([["a"]]);
    expect(ids(box.takeSteering())).toEqual([]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["b"]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["c"]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["d"]);
  });

  it("steering the run never took becomes followups ahead of a settings message that arrived after it", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    box.offer(msg("b", HIGH));
    box.runEnded();
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["b"]);
    expect(ids(box.clear().messages)).toEqual([]);
  });

  it("clear() returns what waited in arrival order", () => {
    const { box } = inbox({ mode: "steer" });
    box.offer(msg("a"));
    box.offer(msg("b", HIGH));
    expect(ids(box.clear().messages)).toEqual(["a", "b"]);
  });
});

describe("inbox: collect with turn settings", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("merges only runs of equal settings: the others run as consecutive turns, in arrival order, each with its own", () => {
    const { box } = inbox({ mode: "collect", debounceMs: 100 });
    box.offer(msg("a", HIGH));
    box.offer(msg("b", { thinkingLevel: "high" }));
    box.offer(msg("c"));
    box.offer(msg("d"));
    box.offer(msg("e", HIGH));
    vi.advanceTimersByTime(100);
    const first = box.nextTurn();
    expect(ids(first?.messages)).toEqual(["a", "b"]);
    expect(first?.mergedText).toBe("a\n\nb");
    expect(settingsOf(first?.messages)).toEqual([HIGH, HIGH]);
    // The rest waited out the same window: each next batch is ready at once.
    const second = box.nextTurn();
    expect(ids(second?.messages)).toEqual(["c", "d"]);
    expect(settingsOf(second?.messages)).toEqual([undefined, undefined]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["e"]);
    expect(box.nextTurn()).toBeUndefined();
  });
});

describe("inbox: interrupt with turn settings", () => {
  it("the interrupting message's turn has its own settings; earlier waiting ones with others run before it, on their own", () => {
    const { box } = inbox({ mode: "interrupt" });
    box.offer(msg("a"));
    box.offer(msg("b", HIGH));
    box.offer(msg("c", HIGH));
    expect(ids(box.nextTurn()?.messages)).toEqual(["a"]);
    const latest = box.nextTurn();
    expect(ids(latest?.messages)).toEqual(["b", "c"]);
    expect(latest?.mergedText).toBe("[Earlier messages, sent before the interrupt]\nb\n\n[Latest message]\nc");
    expect(settingsOf(latest?.messages)).toEqual([HIGH, HIGH]);
  });
});
