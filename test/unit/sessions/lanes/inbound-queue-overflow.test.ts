import { describe, expect, it } from "vitest";
import { createSessionInbox, DEFAULT_QUEUE_CAP, MAX_SUMMARY_LINES, type InboundMessage, type InboxNotice, type SessionInboxOptions } from "../../../../src/sessions/lanes/index.js";

function msg(id: string, text = `text ${id}`): InboundMessage {
  return { id, text, receivedAt: Number(id.replace(/\D/g, "")) || 0 };
}

function inbox(options: Partial<SessionInboxOptions>) {
  const notices: InboxNotice[] = [];
  const box = createSessionInbox({ mode: "followup", notify: (n) => notices.push(n), ...options });
  return { box, notices };
}

const ids = (messages: InboundMessage[] | undefined) => messages?.map((m) => m.id);

describe("inbox overflow: drop new", () => {
  it("refuses the incoming message with a notice once cap messages wait", () => {
    const { box, notices } = inbox({ cap: 2, drop: "new", sessionKey: "agent:main:main" });
    box.offer(msg("m1"));
    expect(box.offer(msg("m2"))).toEqual({ action: "queued", position: 2 }); // exactly at cap: fine
    expect(notices).toEqual([]);
    const result = box.offer(msg("m3", "please also check the logs"));
    expect(result.action).toBe("rejected");
    expect(result.notice).toContain("please also check the logs");
    expect(result.notice).toContain("2 messages");
    expect(notices).toEqual([{ sessionKey: "agent:main:main", kind: "rejected", text: result.notice, messageIds: ["m3"] }]);
    expect(box.pendingCount()).toBe(2);
    expect(ids(box.nextTurn()?.messages)).toEqual(["m1"]);
    // room again after a turn was taken
    expect(box.offer(msg("m4")).action).toBe("queued");
  });

  it("refuses in interrupt mode too, so the caller does not abort for nothing", () => {
    const { box, notices } = inbox({ mode: "interrupt", cap: 1, drop: "new" });
    box.offer(msg("m1"));
    expect(box.offer(msg("m2")).action).toBe("rejected");
    expect(notices.map((n) => n.kind)).toEqual(["rejected"]);
  });
});

describe("inbox overflow: drop old", () => {
  it("drops the oldest waiting message, names it, and keeps the new one", () => {
    const { box, notices } = inbox({ cap: 2, drop: "old" });
    box.offer(msg("m1", "first thing"));
    box.offer(msg("m2"));
    const result = box.offer(msg("m3"));
    expect(result.action).toBe("queued");
    expect(result.position).toBe(2);
    expect(result.notice).toContain("first thing");
    expect(notices).toEqual([{ kind: "dropped", text: result.notice, messageIds: ["m1"] }]);
    expect(ids(box.nextTurn()?.messages)).toEqual(["m2"]);
    expect(box.nextTurn()?.mergedText).toBe("text m3"); // no summary line under "old"
  });

  it("in steer mode drops from the steering buffer when that is all that waits", () => {
    const { box, notices } = inbox({ mode: "steer", cap: 1, drop: "old" });
    box.offer(msg("m1"));
    expect(box.offer(msg("m2")).action).toBe("steered");
    expect(notices.map((n) => n.messageIds)).toEqual([["m1"]]);
    expect(ids(box.takeSteering())).toEqual(["m2"]);
  });
});

describe("inbox overflow: summarize", () => {
  it("drops the oldest but prepends a one-line summary to the next turn", () => {
    const { box, notices } = inbox({ cap: 2, drop: "summarize" });
    box.offer(msg("m1", "book the\n  flight to Lisbon"));
    box.offer(msg("m2", "second"));
    const result = box.offer(msg("m3", "third"));
    expect(result.action).toBe("queued");
    expect(result.notice).toContain("book the flight to Lisbon");
    expect(notices).toEqual([{ kind: "summarized", text: result.notice, messageIds: ["m1"] }]);
    expect(box.pendingCount()).toBe(2);

    const turn = box.nextTurn();
    expect(ids(turn?.messages)).toEqual(["m2"]);
    expect(turn?.mergedText).toBe('[Earlier queued messages were summarized: "book the flight to Lisbon"]\n\nsecond');
    expect(box.nextTurn()?.mergedText).toBe("third"); // the summary is delivered once
  });

  it("is the default policy, and the cap defaults to 20", () => {
    const { box, notices } = inbox({});
    for (let i = 1; i <= DEFAULT_QUEUE_CAP; i++) box.offer(msg(`m${i}`));
    expect(notices).toEqual([]);
    box.offer(msg("m21"));
    expect(notices.map((n) => n.kind)).toEqual(["summarized"]);
    expect(box.pendingCount()).toBe(20);
  });

  it("cuts long messages to about 80 characters in the summary", () => {
    const { box } = inbox({ cap: 1, drop: "summarize" });
    const long = "x".repeat(200);
    box.offer(msg("m1", long));
    box.offer(msg("m2", "short"));
    const text = box.nextTurn()!.mergedText;
    expect(text).toBe(`[Earlier queued messages were summarized: "${"x".repeat(80)}…"]\n\nshort`);
  });

  it("removing a summarized message takes its summary line out: the next turn does not carry it", () => {
    const { box } = inbox({ mode: "collect", debounceMs: 0, cap: 1, drop: "summarize" });
    box.offer(msg("m1", "one"));
    box.offer(msg("m2", "two"));
    box.offer(msg("m3", "three"));
    expect(box.remove("m1")).toBeUndefined();
    expect(box.nextTurn()?.mergedText).toBe('[Earlier queued messages were summarized: "two"]\n\nthree');
  });

  it("collects several summaries into one line", () => {
    const { box } = inbox({ mode: "collect", debounceMs: 0, cap: 1, drop: "summarize" });
    box.offer(msg("m1", "one"));
    box.offer(msg("m2", "two"));
    box.offer(msg("m3", "three"));
    const turn = box.nextTurn();
    expect(ids(turn?.messages)).toEqual(["m3"]);
    expect(turn?.mergedText).toBe('[Earlier queued messages were summarized: "one"; "two"]\n\nthree');
  });

  it("keeps the summary list bounded during a flood, reports the messages whose summary it let go as dropped, and counts them", () => {
    const { box, notices } = inbox({ mode: "collect", debounceMs: 0, cap: 2, drop: "summarize" });
    for (let i = 1; i <= 15; i++) box.offer(msg(`m${i}`, `n${i}`));
    // Every one of the 13 summarized was reported, and so was each of the 3 whose summary went too.
    expect(notices.filter((n) => n.kind === "summarized")).toHaveLength(13);
    const dropped = notices.filter((n) => n.kind === "dropped");
    expect(dropped.map((n) => n.messageIds)).toEqual([["m1"], ["m2"], ["m3"]]);
    expect(dropped[0]!.text).toContain('"n1"');
    const kept = Array.from({ length: MAX_SUMMARY_LINES }, (_, i) => `"n${i + 4}"`).join("; ");
    expect(box.nextTurn()?.mergedText).toBe(`[Earlier queued messages were summarized: ${kept} (+3 more)]\n\nn14\n\nn15`);
  });

  it("in steer mode the summary rides along with the next steering batch as a synthetic message", () => {
    const { box } = inbox({ mode: "steer", cap: 1, drop: "summarize" });
    box.offer(msg("m1", "old steer"));
    box.offer(msg("m2", "new steer"));
    const taken = box.takeSteering();
    expect(taken.map((m) => m.text)).toEqual(['[Earlier queued messages were summarized: "old steer"]', "new steer"]);
    expect(taken[0]?.meta).toEqual({ synthetic: "queue-summary", summarizedIds: ["m1"] });
  });

  it("clear() also returns summaries that were never delivered", () => {
    const { box } = inbox({ cap: 1, drop: "summarize" });
    box.offer(msg("m1", "lost?"));
    box.offer(msg("m2"));
    expect(box.clear()).toEqual({ messages: [msg("m2")], summaries: ["lost?"] });
    expect(box.nextTurn()).toBeUndefined();
  });
});

describe("inbox overflow: cap boundaries", () => {
  it("cap 1 keeps exactly one waiting message", () => {
    const { box, notices } = inbox({ cap: 1, drop: "old" });
    expect(box.offer(msg("m1")).notice).toBeUndefined();
    expect(box.offer(msg("m2")).notice).toBeDefined();
    expect(box.pendingCount()).toBe(1);
    expect(notices).toHaveLength(1);
  });

  it("cap values below 1 are ignored (default 20), fractions round down", () => {
    for (const cap of [0, -5]) {
      const { box, notices } = inbox({ cap, drop: "new" });
      for (let i = 1; i <= 20; i++) box.offer(msg(`m${i}`));
      expect(notices).toEqual([]);
      expect(box.offer(msg("m21")).action).toBe("rejected");
    }
    const { box } = inbox({ cap: 2.9, drop: "new" });
    box.offer(msg("m1"));
    box.offer(msg("m2"));
    expect(box.offer(msg("m3")).action).toBe("rejected");
  });

  it("the steering buffer counts toward the cap", () => {
    const { box } = inbox({ mode: "steer", cap: 2, drop: "new" });
    box.offer(msg("m1"));
    box.offer(msg("m2"));
    expect(box.offer(msg("m3")).action).toBe("rejected");
    box.takeSteering();
    expect(box.offer(msg("m4")).action).toBe("steered");
  });
});
