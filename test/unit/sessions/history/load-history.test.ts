import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../../src/agents/types.js";
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from "../../../../src/sessions/history/index.js";
import { loadHistory, selectHistory } from "../../../helpers/history-oracle.js";

let clock = 1_000;
const user = (text: string): TranscriptMessage => ({ role: "user", content: text, timestamp: clock++ });
const reply = (text: string): TranscriptMessage => ({ role: "assistant", content: [{ type: "text", text }], timestamp: clock++ });
const call = (id: string, name = "read"): TranscriptMessage => ({
  role: "assistant",
  content: [{ type: "toolCall", id, name, arguments: { path: "AGENTS.md" } }],
  stopReason: "toolUse",
  timestamp: clock++,
});
const result = (id: string, text: string): TranscriptMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: clock++,
});
const text = (m: TranscriptMessage) => JSON.stringify((m as { content: unknown }).content);

describe("estimateTokens", () => {
  it("is about chars/4 plus a per-message overhead", () => {
    expect(estimateTokens(user("x".repeat(400)))).toBe(100 + MESSAGE_OVERHEAD_TOKENS);
    expect(estimateTokens(reply(""))).toBe(MESSAGE_OVERHEAD_TOKENS);
  });

  it("charges images a fixed cost, not their base64 size", () => {
    const withImage: TranscriptMessage = { role: "user", content: [{ type: "image", data: "A".repeat(1_000_000), mimeType: "image/png" }], timestamp: 1 };
    expect(estimateTokens(withImage)).toBe(IMAGE_TOKENS + MESSAGE_OVERHEAD_TOKENS);
  });

  it("counts tool call arguments and tool result text", () => {
    expect(estimateTokens(call("c1"))).toBeGreaterThan(MESSAGE_OVERHEAD_TOKENS);
    expect(estimateTokens(result("c1", "y".repeat(800)))).toBeGreaterThanOrEqual(200);
  });
});

describe("loadHistory", () => {
  it("keeps the newest messages that fit, in chronological order", () => {
    const messages = Array.from({ length: 10 }, (_, i) => (i % 2 ? reply(`answer ${i} ${"a".repeat(36)}`) : user(`question ${i} ${"q".repeat(36)}`)));
    const one = estimateTokens(messages[9]!);
    const window = selectHistory(messages, { tokenBudget: one * 3 + 1 });
    expect(window.messages).toEqual(messages.slice(7));
    expect(window.omittedMessages).toBe(7);
    expect(window.estimatedTokens).toBeLessThanOrEqual(one * 3 + 1);
    expect(loadHistory(messages, { tokenBudget: 1e9 })).toEqual(messages);
    expect(loadHistory(messages, { tokenBudget: 0 })).toEqual([]);
    expect(loadHistory(messages, { tokenBudget: Number.NaN })).toEqual([]);
  });

  it("never separates a tool call from its results: the whole group goes", () => {
    const q = user("read the file");
    const c = call("c1");
    const r1 = result("c1", "r".repeat(4000));
    const a = reply("done");
    const all = [q, c, r1, a];
    const budgetForAnswerOnly = estimateTokens(a) + estimateTokens(r1) - 1;
    expect(loadHistory(all, { tokenBudget: budgetForAnswerOnly })).toEqual([a]);
    const withGroup = estimateTokens(a) + estimateTokens(c) + estimateTokens(r1);
    expect(loadHistory(all, { tokenBudget: withGroup })).toEqual([c, r1, a]);
  });

  it("keeps parallel tool results with their call", () => {
    const c: TranscriptMessage = {
      role: "assistant",
      content: [
        { type: "toolCall", id: "a", name: "read", arguments: {} },
        { type: "toolCall", id: "b", name: "read", arguments: {} },
      ],
      timestamp: clock++,
    };
    const ra = result("a", "one");
    const rb = result("b", "two");
    const msgs = [user("go"), c, ra, rb, reply("ok")];
    const exact = [c, ra, rb, msgs[4]!].reduce((s, m) => s + estimateTokens(m), 0);
    expect(loadHistory(msgs, { tokenBudget: exact })).toEqual([c, ra, rb, msgs[4]]);
    expect(loadHistory(msgs, { tokenBudget: exact - 1 })).toEqual([msgs[4]]);
  });

  it("filters internal events, custom entries and orphan tool results", () => {
    const entries = [
      { type: "model_change", id: "m0", parentId: null, timestamp: "t", provider: "anthropic", modelId: "x" },
      { type: "message", id: "m1", parentId: "m0", timestamp: "t", message: user("hello") },
      { type: "custom", id: "m2", parentId: "m1", timestamp: "t", customType: "state", data: {} },
      { type: "message", id: "m3", parentId: "m2", timestamp: "t", message: { role: "system_event", text: "cron fired", timestamp: 1 } },
      { type: "message", id: "m4", parentId: "m3", timestamp: "t", message: result("ghost", "no call for me") },
      { type: "message", id: "m5", parentId: "m4", timestamp: "t", message: reply("hi") },
      { type: "message", id: "m6", parentId: "m5", timestamp: "t", message: { role: "assistant", content: [], stopReason: "error", timestamp: 2 } },
    ];
    const out = loadHistory(entries, { tokenBudget: 10_000 });
    expect(out.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(text(out[1]!)).toContain("hi");
  });

  it("starts from the latest compaction: its summary, then the kept messages", () => {
    const old = user("ancient");
    const kept = user("still relevant");
    const entries = [
      { type: "message", id: "e1", parentId: null, timestamp: "t", message: old },
      { type: "message", id: "e2", parentId: "e1", timestamp: "t", message: kept },
      { type: "compaction", id: "e3", parentId: "e2", timestamp: "2026-01-01T00:00:00.000Z", summary: "User set up the project.", firstKeptEntryId: "e2", tokensBefore: 5000 },
      { type: "message", id: "e4", parentId: "e3", timestamp: "t", message: reply("after") },
    ];
    const out = loadHistory(entries, { tokenBudget: 10_000 });
    expect(out).toHaveLength(3);
    expect(out[0]!.role).toBe("user");
    expect(text(out[0]!)).toContain("User set up the project.");
    expect(out.slice(1)).toEqual([kept, entries[3]!.message]);
  });
});
