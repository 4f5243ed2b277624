import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../src/agents/types.js";
import { orderConversation, userKey } from "../../../src/conversations/conversation-order.js";
import { ConversationWindow } from "../../../src/conversations/conversation-window.js";
import { afterLatestCompaction, compactionSummaryMessage, toHistoryItems } from "../../../src/sessions/history/index.js";
import { planCompaction } from "../../../src/sessions/compaction/index.js";
import { withdrawalEntry } from "../../../src/sessions/store/index.js";
import { loadHistory } from "../../helpers/history-oracle.js";
import { modelProjection } from "../../../src/agents/runner/model-messages.js";

/** A small deterministic PRNG, so a failure names a seed that reproduces it. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A transcript as a busy gateway writes one: queued and merged turns, tool rounds, stray results, empty answers. */
function randomTranscript(seed: number, length: number): TranscriptMessage[] {
  const rnd = prng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)]!;
  const out: TranscriptMessage[] = [];
  const pendingKeys: string[] = [];
  let n = 0;
  for (let i = 0; i < length; i += 1) {
    const r = rnd();
    const text = "x".repeat(1 + Math.floor(rnd() * 200));
    if (r < 0.35) {
      // Sometimes a key repeats or arrives after its answer.
      const key = rnd() < 0.05 && out.length > 0 ? `k${Math.floor(rnd() * n)}` : `k${n++}`;
      out.push({ role: "user", content: text, timestamp: 0, idempotencyKey: key } as TranscriptMessage);
      pendingKeys.push(key);
    } else if (r < 0.7) {
      const answers = pendingKeys.length > 0 && rnd() < 0.85 ? pendingKeys.splice(0, 1 + Math.floor(rnd() * Math.min(3, pendingKeys.length))) : undefined;
      const tools = rnd() < 0.3;
      const empty = rnd() < 0.05;
      const content = empty ? [] : [{ type: "text", text }, ...(tools ? [{ type: "toolCall", id: `c${i}`, name: "exec", arguments: { cmd: text } }] : [])];
      out.push({ role: "assistant", content, timestamp: 0, ...(answers && rnd() < 0.9 ? { answers } : {}) } as TranscriptMessage);
    } else if (r < 0.92) {
      out.push({ role: "toolResult", toolCallId: `c${i}`, toolName: "exec", content: [{ type: "text", text }], isError: false, timestamp: 0 } as TranscriptMessage);
    } else {
      out.push({ role: pick(["system", "custom"]), content: text, timestamp: 0 } as unknown as TranscriptMessage);
    }
  }
  return out;
}

const reference = (messages: TranscriptMessage[], budget: number, leaveOut: Set<string>) =>
  loadHistory(
    orderConversation(messages).filter((m) => {
      const key = userKey(m);
      return key === undefined || !leaveOut.has(key);
    }),
    { tokenBudget: budget },
  ).map((m) => modelProjection(m));

describe("ConversationWindow", () => {
  it("gives exactly loadHistory(orderConversation(…)) for random transcripts, budgets and left-out keys, built at once or message by message", () => {
    for (let seed = 1; seed <= 150; seed += 1) {
      const rnd = prng(seed * 7919);
      const messages = randomTranscript(seed, 1 + Math.floor(rnd() * 120));
      const keys = messages.map(userKey).filter((k): k is string => k !== undefined);
      const leaveOut = new Set(keys.filter(() => rnd() < 0.15));
      const incremental = new ConversationWindow();
      for (let i = 0; i < messages.length; i += 1) {
        incremental.add(messages[i]!);
        if (rnd() < 0.2) {
          const budget = Math.floor(rnd() * 3000);
          expect(incremental.window(budget, leaveOut), `seed ${seed}, prefix ${i + 1}, budget ${budget}`).toEqual(reference(messages.slice(0, i + 1), budget, leaveOut));
        }
      }
      for (const budget of [0, 50, 500, 5_000, 1e9, Number.NaN]) {
        expect(new ConversationWindow(messages).window(budget, leaveOut), `seed ${seed}, budget ${budget}`).toEqual(reference(messages, budget, leaveOut));
        expect(incremental.window(budget, leaveOut), `seed ${seed}, budget ${budget}`).toEqual(reference(messages, budget, leaveOut));
      }
    }
  });

  it("puts a compaction summary first, always, as loadHistory does after a compaction entry", () => {
    const compaction = { type: "compaction", id: "c1", summary: "We agreed on blue.", timestamp: "2026-11-30T00:00:00.000Z" };
    const summary = compactionSummaryMessage({ summary: compaction.summary, timestamp: Date.parse(compaction.timestamp) });
    for (let seed = 1; seed <= 40; seed += 1) {
      const messages = randomTranscript(seed, 60);
      const view = new ConversationWindow(messages, summary);
      for (const budget of [0, 300, 3_000, 1e9]) {
        const expected = loadHistory([compaction as never, ...orderConversation(messages)], { tokenBudget: budget }).map((m) => modelProjection(m));
        expect(view.window(budget, new Set()), `seed ${seed}, budget ${budget}`).toEqual(expected);
      }
    }
    expect(new ConversationWindow([], summary).window(0, new Set())[0]!.content).toEqual(summary.content);
  });

  it("applies a compaction in memory exactly as a window rebuilt from the transcript sees it", () => {
    let checked = 0;
    for (let seed = 1; seed <= 200; seed += 1) {
      const messages = randomTranscript(seed, 80);
      // The ledger accepts an idempotency key once: transcripts where one repeats are not ones a gateway writes.
      const keys = messages.map(userKey).filter((k) => k !== undefined);
      if (new Set(keys).size !== keys.length) continue;
      const ids = messages.map((_, i) => `e${i}`);
      const view = new ConversationWindow(messages, undefined, ids);
      const plan = planCompaction(view.compactionInput().messages, { keepRecentTokens: 400, minRecentTurns: 3 });
      if (!plan.ok) continue;
      const text = `Summary for seed ${seed}.`;
      expect(view.applyCompaction(plan.firstKeptEntryId, { message: compactionSummaryMessage({ summary: text, timestamp: 0 }), text })).toBe(true);
      const entries = [
        ...messages.map((message, i) => ({ type: "message", id: ids[i]!, parentId: null, timestamp: "", message })),
        { type: "compaction", id: "cmp", parentId: null, timestamp: new Date(0).toISOString(), summary: text, firstKeptEntryId: plan.firstKeptEntryId },
      ];
      const { summary, messages: kept } = afterLatestCompaction(toHistoryItems(entries));
      const rebuilt = new ConversationWindow(
        kept.map((m) => m.message),
        summary && { message: compactionSummaryMessage(summary), text: summary.summary },
        kept.map((m) => m.id),
      );
      for (const budget of [300, 3_000, 1e9]) expect(view.window(budget, new Set()), `seed ${seed}, budget ${budget}`).toEqual(rebuilt.window(budget, new Set()));
      expect(view.compactionInput().previousSummary).toBe(text);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("after a compaction, keeps behaving as a window rebuilt from the transcript, even for a key whose answer was summarized", () => {
    // Both windows forget what was summarized: a key answered before the cut counts as never answered.
    const u = (key: string, text: string) => ({ role: "user", content: text, timestamp: 0, idempotencyKey: key }) as TranscriptMessage;
    const a = (text: string, answers: string[]) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0, answers }) as TranscriptMessage;
    const turns = Array.from({ length: 30 }, (_, i) => [u(`k${i}`, `question ${i} ${"x".repeat(40)}`), a(`answer ${i} ${"y".repeat(40)}`, [`k${i}`])]).flat();
    const ids = turns.map((_, i) => `e${i}`);
    const view = new ConversationWindow(turns, undefined, ids);
    const plan = planCompaction(view.compactionInput().messages, { keepRecentTokens: 100, minRecentTurns: 3 });
    if (!plan.ok) throw new Error(plan.reason);
    const text = "Thirty questions, thirty answers.";
    expect(view.applyCompaction(plan.firstKeptEntryId, { message: compactionSummaryMessage({ summary: text, timestamp: 0 }), text })).toBe(true);
    const entries = [
      ...turns.map((message, i) => ({ type: "message", id: ids[i]!, parentId: null, timestamp: "", message })),
      { type: "compaction", id: "cmp", parentId: null, timestamp: new Date(0).toISOString(), summary: text, firstKeptEntryId: plan.firstKeptEntryId },
    ];
    const { summary, messages: kept } = afterLatestCompaction(toHistoryItems(entries));
    expect(kept.some((m) => userKey(m.message) === "k0")).toBe(false);
    const rebuilt = new ConversationWindow(
      kept.map((m) => m.message),
      summary && { message: compactionSummaryMessage(summary), text: summary.summary },
      kept.map((m) => m.id),
    );
    // k0 arrives again while a new message waits; its answer comes after the new one's.
    for (const message of [u("k0", "k0 again"), u("n1", "new one"), a("A-n1", ["n1"]), a("A-k0", ["k0"])]) {
      view.add(message);
      rebuilt.add(message);
    }
    const texts = (w: ConversationWindow) => w.window(1e9, new Set()).map((m) => (typeof m.content === "string" ? m.content : (m.content as { text: string }[])[0]!.text));
    expect(texts(view).slice(-4)).toEqual(["new one", "A-n1", "k0 again", "A-k0"]);
    expect(texts(view)).toEqual(texts(rebuilt));
  });

  it("a withdrawn message leaves the window, and a compaction that kept from it cuts there as the transcript read back does", () => {
    const u = (key: string, text: string) => ({ role: "user", content: text, timestamp: 0, idempotencyKey: key }) as TranscriptMessage;
    const a = (text: string, answers: string[]) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0, answers }) as TranscriptMessage;
    const before = [u("k1", "question 1"), a("answer 1", ["k1"]), u("q", "waits, then is dropped"), u("k2", "question 2"), a("answer 2", ["k2"])];
    const after = [u("k3", "question 3"), a("answer 3", ["k3"])];
    const ids = before.map((_, i) => `e${i}`);
    const view = new ConversationWindow(before, undefined, ids);
    expect(view.userEntryId("q")).toBe("e2");
    // The compaction planned while "q" waited keeps from it; "q" is withdrawn after.
    const text = "One question answered.";
    expect(view.applyCompaction("e2", { message: compactionSummaryMessage({ summary: text, timestamp: 0 }), text })).toBe(true);
    expect(view.withdraw("e2")).toBe(true);
    expect(view.withdraw("e2")).toBe(false);
    expect(view.userEntryId("q")).toBeUndefined();
    for (const [i, message] of after.entries()) view.add(message, `f${i}`);
    const entries = [
      ...before.map((message, i) => ({ type: "message", id: ids[i]!, parentId: null, timestamp: "", message })),
      { type: "compaction", id: "cmp", parentId: null, timestamp: new Date(0).toISOString(), summary: text, firstKeptEntryId: "e2" },
      { id: "w", parentId: null, timestamp: "", ...withdrawalEntry("e2", "q", "dropped") },
      ...after.map((message, i) => ({ type: "message", id: `f${i}`, parentId: null, timestamp: "", message })),
    ];
    const { summary, messages: kept } = afterLatestCompaction(toHistoryItems(entries));
    expect(kept.map((m) => m.id)).toEqual(["e3", "e4", "f0", "f1"]);
    const rebuilt = new ConversationWindow(
      kept.map((m) => m.message),
      summary && { message: compactionSummaryMessage(summary), text: summary.summary },
      kept.map((m) => m.id),
    );
    expect(view.window(1e9, new Set())).toEqual(rebuilt.window(1e9, new Set()));
    expect(JSON.stringify(view.window(1e9, new Set()))).not.toContain("dropped");
    expect(view.contextTokens).toBe(rebuilt.contextTokens);
    expect(view.compactionInput().messages.map((m) => m.id)).toEqual(rebuilt.compactionInput().messages.map((m) => m.id));
  });

  it("moves a queued message behind the answer it arrived during", () => {
    const u = (key: string) => ({ role: "user", content: key, timestamp: 0, idempotencyKey: key }) as TranscriptMessage;
    const a = (text: string, answers: string[]) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0, answers }) as TranscriptMessage;
    const view = new ConversationWindow([u("q1"), u("q2"), a("A1", ["q1"]), a("A2", ["q2"])]);
    expect(view.window(1e9, new Set()).map((m) => (m.role === "user" ? m.content : (m.content as { text: string }[])[0]!.text))).toEqual(["q1", "A1", "q2", "A2"]);
    expect(view.window(1e9, new Set(["q2"])).length).toBe(3);
  });

  it("keeps model projections, not the transcript messages with their extra fields", () => {
    const user = { role: "user", content: "hi", timestamp: 1, idempotencyKey: "k1", provenance: { kind: "external_user", method: "http" } } as TranscriptMessage;
    const answer = {
      role: "assistant",
      content: [{ type: "text", text: "hello" }],
      timestamp: 2,
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      answers: ["k1"],
    } as TranscriptMessage;
    const [first, second] = new ConversationWindow([user, answer]).window(1e9, new Set());
    expect(JSON.stringify(first)).toBe('{"role":"user","content":"hi","timestamp":1}');
    expect(JSON.stringify(second)).toBe('{"role":"assistant","content":[{"type":"text","text":"hello"}],"timestamp":2}');
    // The same objects every turn, so the provider's per-message wire cache keeps hitting.
    expect(modelProjection(first!)).toBe(first);
    expect(modelProjection(second!)).toBe(second);
  });
});

describe("ConversationWindow with a user-turn limit (dmHistoryLimit)", () => {
  const u = (key: string, text: string) => ({ role: "user", content: text, timestamp: 0, idempotencyKey: key }) as TranscriptMessage;
  const a = (text: string, answers: string[]) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0, answers }) as TranscriptMessage;
  const turns = Array.from({ length: 5 }, (_, i) => [u(`k${i}`, `question ${i}`), a(`answer ${i}`, [`k${i}`])]).flat();
  const texts = (messages: ReturnType<ConversationWindow["window"]>) => messages.map((m) => (typeof m.content === "string" ? m.content : (m.content[0] as { text: string }).text));

  it("keeps the newest N user turns with their answers, starting at a user message", () => {
    const view = new ConversationWindow([...turns, u("k5", "the new prompt")]);
    expect(texts(view.window(1e9, new Set(["k5"]), 2))).toEqual(["question 3", "answer 3", "question 4", "answer 4"]);
    expect(view.window(1e9, new Set(["k5"]), 0)).toEqual([]);
    expect(view.window(1e9, new Set(["k5"]), 99)).toEqual(view.window(1e9, new Set(["k5"])));
  });

  it("keeps the compaction summary first, whatever the limit", () => {
    const summary = compactionSummaryMessage({ summary: "Earlier: blue.", timestamp: 0 });
    const view = new ConversationWindow(turns, { message: summary, text: "Earlier: blue." });
    const window = view.window(1e9, new Set(), 1);
    expect(window[0]!.content).toEqual(summary.content);
    expect(texts(window.slice(1))).toEqual(["question 4", "answer 4"]);
  });
});
